"""A steering vector is scaled under `torch.no_grad()` inside the trace; the patch itself and the
backward are outside the block.
"""
import torch

direction = torch.ones(32)
with model.trace("a cat ran on the mat"):
    with torch.no_grad():
        delta = direction * 0.1
    model.transformer.h[0].output[:] = model.transformer.h[0].output + delta
    hidden = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()

assert hidden_grad is not None
