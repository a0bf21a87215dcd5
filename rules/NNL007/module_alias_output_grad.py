"""A block is bound to a name, its OUTPUT is captured through that name, and `.grad` is read on the
output: the module name is only a step on the way to a tensor.
"""
with model.trace("the dog sat on the mat"):
    block = model.transformer.h[1]
    block_out = block.output
    with model.lm_head.output.sum().backward():
        block_grad = block_out.grad.save()

assert block_grad is not None
