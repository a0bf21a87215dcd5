"""`torch.no_grad()` around the second layer's read, then `torch.autograd.grad` of the logits with
respect to the first layer's output.

The graph was cut at h[1]: torch says the first layer's output was not used in the graph.
"""
# runtime-raises: appears to not have been used in the graph
import torch

with model.trace("the mat sat"):
    first = model.transformer.h[0].output
    with torch.no_grad():  # expect: NNL006
        second = model.transformer.h[1].output
    (first_grad,) = torch.autograd.grad(model.lm_head.output.sum(), first)
