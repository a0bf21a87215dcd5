"""A backward on a first-layer loss, then the logits read under `torch.no_grad()` after its block.

The only backward ran before the no_grad read, so the leaked grad mode cuts nothing it needs.
"""
import torch

with model.trace("the cat sat"):
    first = model.transformer.h[0].output
    with first.sum().backward():
        first_grad = first.grad.save()
    with torch.no_grad():
        logits = model.lm_head.output.save()

assert first_grad is not None
assert logits.shape == (1, 3, 12)
