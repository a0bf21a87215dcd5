"""A list to collect activations is made with `nnsight.save([])` before the trace.

`nnsight.save` only works inside a trace; before it there is nothing to mark the list for.
"""
# runtime-raises: save() was called outside a trace
import nnsight

collected = nnsight.save([])  # expect: NNL105
with model.trace("hello world"):
    collected.append(model.lm_head.output)
