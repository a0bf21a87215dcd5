"""A plain `.backward()` in a trace of a remote session: with NDIF's frozen parameters the loss
has no graph, and torch refuses the backward (parameters frozen here as NDIF serves them)."""
# runtime-raises: does not require grad
model._module.requires_grad_(False)  # as NDIF serves the model
try:
    with model.session(remote="local"):
        with model.trace("the cat sat"):
            hidden = model.transformer.h[0].output.save()
            model.lm_head.output.sum().backward()  # expect: NNL602
finally:
    model._module.requires_grad_(True)
