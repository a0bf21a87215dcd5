"""The remote trace asks for a graph from the value it wants the gradient of: with NDIF's frozen
parameters the backward runs (frozen here as NDIF serves them), as nnsight's gradient docs write it."""
model._module.requires_grad_(False)  # as NDIF serves the model
try:
    with model.trace("the cat sat", remote="local"):
        hidden = model.transformer.h[0].output
        hidden.requires_grad_(True)
        with model.lm_head.output.sum().backward():
            grad = hidden.grad.save()
finally:
    model._module.requires_grad_(True)
assert grad.shape == (1, 3, 32)
