"""A block reached through `model._module` is the torch block, not its envoy."""
# runtime-raises: 'GPT2Block' object has no attribute 'output'
with model.trace("the cat sat"):
    hidden = model._module.transformer.h[0].output.save()  # expect: NNL506
