"""The head's output is read after the trace ended: no model run is there to take it from."""
# runtime-raises: outside of interleaving
with model.trace("the cat sat"):
    hidden = model.transformer.h[0].output.save()

logits = model.lm_head.output  # expect: NNL504
