"""On nnsight 0.3, a saved name is still a proxy after the trace and `.value` reads its tensor.

The 0.2/0.3 API (checked on nnsight 0.3.7): correct for that target, nothing to report.
"""
# target-version: 0.3
with model.trace("hello world"):
    logits = model.lm_head.output.save()

print(logits.value.shape)
