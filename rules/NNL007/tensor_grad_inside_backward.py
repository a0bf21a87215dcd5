"""`.grad` on the block's output tensor (captured before the backward block), not on the block.
"""
with model.trace("the cat sat on the mat"):
    block_out = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        block_grad = block_out.grad.save()

assert block_grad is not None
