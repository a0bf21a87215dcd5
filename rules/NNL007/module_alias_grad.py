"""A block is bound to a name before the backward, and `.grad` is read on that name: the name is
the module, not its output.
"""
# runtime-raises: 'Envoy' object (nor its module) has attribute 'grad'
with model.trace("the cat ran"):
    block = model.transformer.h[1]
    with model.lm_head.output.sum().backward():
        block_grad = block.grad.save()  # expect: NNL007
