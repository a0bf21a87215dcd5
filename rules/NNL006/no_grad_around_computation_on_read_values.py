"""`torch.no_grad()` inside the trace, but only around arithmetic on a value already read (a norm
for logging); the backward block reads the gradient as usual.

No module is accessed inside the block, so the forward never runs under it.
"""
import torch

with model.trace("the cat sat on the mat"):
    hidden = model.transformer.h[0].output
    with torch.no_grad():
        hidden_norm = hidden.norm().save()
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()

assert hidden_norm > 0
assert hidden_grad is not None
