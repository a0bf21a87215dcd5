"""The `.save()` was moved below the trace, onto the value read after it.

By then the trace has exited: the save runs outside any trace.
"""
# runtime-raises: save() was called outside a trace
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

top = logits[:, -1, :].argmax(-1).save()  # expect: NNL105
