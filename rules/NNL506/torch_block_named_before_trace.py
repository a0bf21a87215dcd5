"""The torch block is named before the trace, then its input read inside it."""
# runtime-raises: 'GPT2Block' object has no attribute 'input'
raw = model._module.transformer.h[1]
with model.trace("the cat sat"):
    x = raw.input.save()  # expect: NNL506
