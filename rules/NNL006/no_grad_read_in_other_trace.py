"""One trace reads a baseline under `torch.no_grad()` (no backward in it); a second trace runs the
backward. The grad mode of one trace's forward does not reach the other's.
"""
import torch

with model.trace("the mat sat"):
    with torch.no_grad():
        baseline = model.transformer.h[1].output.save()

with model.trace("the mat sat"):
    hidden = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()

assert not baseline.requires_grad
assert hidden_grad is not None
