"""The gradient documentation's shape `hs = model.transformer.h[1].output[0]`, on a transformers
release where a block's output is a tensor: `[0]` is a slice of the batch, a new tensor autograd
never delivers a gradient for.

Its one `.grad` read fails with the same id-naming OutOfOrderError, but a single read cannot be
out of order: NNL003 says nothing (the runtime hook must not re-tell this error as an order one).
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
with model.trace("the cat sat"):
    hs = model.transformer.h[1].output[0]
    hs.requires_grad_(True)
    logits = model.lm_head.output
    with logits.sum().backward():
        hs_grad = hs.grad.save()
