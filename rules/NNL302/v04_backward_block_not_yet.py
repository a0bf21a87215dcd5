"""A `with loss.backward():` block, written the nnsight 0.5+ way, in a project pinned to 0.4.

On nnsight 0.4.11 `loss.backward()` in a trace is a proxy, no context manager (checked by running):
TypeError at the `with`. 0.4 saves the `.grad` first and calls `loss.backward()` plainly.
"""
# target-version: 0.4
# runtime-raises: does not support the context manager protocol
with model.trace("hello world", scan=False, validate=False):
    hidden = model.transformer.h[0].mlp.output
    loss = model.lm_head.output.sum()
    with loss.backward():  # expect: NNL302
        grad = hidden.grad.save()
