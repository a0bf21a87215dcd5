"""A remote trace that only reads activations needs no graph: frozen parameters are fine."""
model._module.requires_grad_(False)  # as NDIF serves the model
try:
    with model.trace("the cat sat", remote="local"):
        logits = model.lm_head.output.save()
finally:
    model._module.requires_grad_(True)
assert logits.shape == (1, 3, 12)
