"""A steering vector created in the trace with `requires_grad=True` is added to a layer's output;
a plain backward fills its `.grad`.

The vector is a leaf tensor, not an activation: plain torch gives it a real gradient.
"""
import torch

with model.trace("the dog sat"):
    steer = torch.zeros(32, requires_grad=True)
    model.transformer.h[0].output[:] = model.transformer.h[0].output + steer
    model.lm_head.output[0, -1].max().backward()
    steer_grad = steer.grad.save()

assert steer_grad is not None
assert steer_grad.shape == (32,)
