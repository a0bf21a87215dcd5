"""On nnsight 0.4, `module.next()` is how a generate trace reaches the next step.

Correct for a repo pinned to 0.4 (checked on nnsight 0.4.11).
"""
# target-version: 0.4
with model.generate("hello world", max_new_tokens=3):
    first = model.lm_head.output.save()
    second = model.lm_head.next().output.save()

print(first.shape, second.shape)
