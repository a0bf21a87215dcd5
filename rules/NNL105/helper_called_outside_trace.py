"""A helper that saves its argument, called on a tensor after the trace rather than inside one.

The helper is never called from a trace, so its save runs with no trace running.
"""
# runtime-raises: save() was called outside a trace
import nnsight


def keep(value):
    return nnsight.save(value)  # expect: NNL105


with model.trace("a dog ran"):
    hidden = model.transformer.h[0].output.save()

pooled = keep(hidden.mean(dim=1))
