"""A block named before the trace, and its output read after it (to print a shape)."""
# runtime-raises: outside of interleaving
block = model.transformer.h[1]
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

print(block.output.shape)  # expect: NNL504
