"""A backward block whose whole item `loss.backward()` sits on its own line inside parentheses.

The call is on the first line of the item, which nnsight also accepts. Runs clean.
"""
with model.trace("hello world"):
    loss = model.lm_head.output.sum()
    with (
        loss.backward()
    ):
        grad = model.transformer.wte.weight.grad.save()

assert grad.shape == (12, 32)
