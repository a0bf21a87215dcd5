"""`torch.no_grad()` wraps only the preparation of a steering vector; the trace with the backward
comes after the block, with gradients on.
"""
import torch

with torch.no_grad():
    direction = torch.ones(32) / 32 ** 0.5

with model.trace("a dog sat"):
    model.transformer.h[0].output[:] = model.transformer.h[0].output + direction
    model.lm_head.output.sum().backward()

assert model.lm_head.weight.grad is not None
