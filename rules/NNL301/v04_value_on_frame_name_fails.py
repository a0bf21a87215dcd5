"""Even on nnsight 0.4, `.value` on a saved name bound in the trace's frame fails.

0.4 injects saved values into the frame when the trace exits (`CONFIG.APP.FRAME_INJECTION`, on by
default), so the name is the tensor itself; `.value` was the 0.2/0.3 API (checked on 0.4.11 and 0.3.7).
"""
# target-version: 0.4
# runtime-raises: 'Tensor' object has no attribute 'value'
with model.trace("hello world"):
    logits = model.lm_head.output.save()

print(logits.value.shape)  # expect: NNL301
