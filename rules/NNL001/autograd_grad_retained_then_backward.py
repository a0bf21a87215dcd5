"""`torch.autograd.grad(..., retain_graph=True)` in the first invoke, `.backward()` in the second.

The run is clean.
"""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        loss = model.lm_head.output.sum()
        (weight_grad,) = torch.autograd.grad(loss, model.lm_head.weight, retain_graph=True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
