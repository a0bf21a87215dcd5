"""The line that asks for a graph is commented out (a shape from public attribution-patching code):
a comment asks for nothing, so with NDIF's frozen parameters the backward fails (frozen here as
NDIF serves them)."""
# runtime-raises: does not require grad
model._module.requires_grad_(False)  # as NDIF serves the model
try:
    with model.trace("the cat sat", remote="local"):
        # need to set requires grad to true for remote
        # model.transformer.h[0].input.requires_grad = True
        hidden = model.transformer.h[1].output
        with model.lm_head.output.sum().backward():  # expect: NNL602
            grad = hidden.grad.save()
finally:
    model._module.requires_grad_(True)
