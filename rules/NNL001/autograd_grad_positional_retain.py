"""`torch.autograd.grad` retains through its fourth positional argument (`retain_graph`).

The run is clean.
"""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        loss = model.lm_head.output.sum()
        (weight_grad,) = torch.autograd.grad(loss, model.lm_head.weight, None, True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
