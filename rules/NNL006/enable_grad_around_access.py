"""`torch.enable_grad()` (not `no_grad`) around a read inside the trace, then a backward block.
"""
import torch

with model.trace("hello world"):
    with torch.enable_grad():
        hidden = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()

assert hidden_grad is not None
