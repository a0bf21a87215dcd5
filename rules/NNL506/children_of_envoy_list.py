"""`.children()` of an envoy is handed through to the torch module list: it yields torch blocks."""
# runtime-raises: 'GPT2Block' object has no attribute 'output'
with model.trace("the cat sat"):
    outs = [block.output.save() for block in model.transformer.h.children()]  # expect: NNL506
