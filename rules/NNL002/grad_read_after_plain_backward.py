"""A plain `loss.backward()` in the trace, then `.grad` of an activation captured before it.

Torch keeps gradients only for leaves; without `retain_grad()` the activation's `.grad` stays None.
"""
with model.trace("a dog ran"):
    block_out = model.transformer.h[1].output
    loss = model.lm_head.output[0, -1].max()
    loss.backward()
    block_grad = block_out.grad.save()  # expect: NNL002

assert block_grad is None
