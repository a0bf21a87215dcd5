"""`.requires_grad = True` on a module's input (nnsight's remote attribution-patching tutorial):
the backward runs with NDIF's frozen parameters (frozen here as NDIF serves them)."""
model._module.requires_grad_(False)  # as NDIF serves the model
try:
    with model.trace("a dog ran", remote="local"):
        model.transformer.h[0].input.requires_grad = True
        hidden = model.transformer.h[1].output
        with model.lm_head.output.sum().backward():
            grad = hidden.grad.save()
finally:
    model._module.requires_grad_(True)
assert grad.abs().sum() > 0
