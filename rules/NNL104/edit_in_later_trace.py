"""A value saved in one trace; a later trace zeroes the same block's output in place.

Each trace is its own forward pass with its own tensors.
"""
with model.trace("the cat sat"):
    clean = model.transformer.h[0].output.save()

with model.trace("the cat sat"):
    model.transformer.h[0].output[:] = 0
    ablated_logits = model.lm_head.output.save()

assert clean.abs().sum().item() > 0
