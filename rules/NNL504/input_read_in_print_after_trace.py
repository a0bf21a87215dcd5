"""A block's input is printed after the trace, as if the trace had left it behind."""
# runtime-raises: outside of interleaving
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

print(model.transformer.h[0].input.shape)  # expect: NNL504
