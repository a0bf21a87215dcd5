"""A loop over the layers in backward order, but each layer's `.output` is read inside the block.

The order is right; the place is not: the first `.output` inside the block already fails.
"""
# runtime-raises: 'model.transformer.h.1.output.i0' was requested but the model already ran past it
grads = []
with model.trace("a cat sat on the mat"):
    with model.lm_head.output.sum().backward():
        for layer in reversed(model.transformer.h):
            grads.append(layer.output.grad.save())  # expect: NNL004
