"""A backward block whose `.backward(` call opens on the `with` line and closes on the next one.

The call is reported on its first line, the `with` line: nnsight finds the block. Runs clean.
"""
with model.trace("hello world"):
    loss = model.lm_head.output.sum()
    with loss.backward(
        retain_graph=False,
    ):
        grad = model.transformer.wte.weight.grad.save()

assert grad.shape == (12, 32)
