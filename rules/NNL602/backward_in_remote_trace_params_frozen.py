"""A remote trace takes a gradient, but nothing in it requires grad: NDIF's parameters do not.

NDIF serves its models with every parameter frozen (nnsight issue #251), so a forward there builds no
autograd graph unless the block asks for one (`requires_grad` on a value); the backward
then fails (nnsight 0.8.1: NotImplementedError from the backward session). Here the parameters are
frozen as NDIF serves them, and `remote="local"` builds and runs the same request.
"""
# runtime-raises: does not require grad
model._module.requires_grad_(False)  # as NDIF serves the model
try:
    with model.trace("the cat sat", remote="local"):
        hidden = model.transformer.h[0].output
        with model.lm_head.output.sum().backward():  # expect: NNL602
            grad = hidden.grad.save()
finally:
    model._module.requires_grad_(True)
