"""nnsight 0.4's way to a gradient: `.grad.save()` before a plain `loss.backward()` in the trace.

Correct for a project pinned to 0.4 (checked on nnsight 0.4.11): the saved gradient has the
module output's shape.
"""
# target-version: 0.4
with model.trace("hello world", scan=False, validate=False):
    hidden = model.transformer.h[0].mlp.output
    grad = hidden.grad.save()
    loss = model.lm_head.output.sum()
    loss.backward()

assert grad.shape[-1] == 32
