"""`torch.autograd.backward` retains through its third positional argument (`retain_graph`).

The run is clean.
"""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        torch.autograd.backward(model.lm_head.output.sum(), None, True)
    with tracer.invoke("the cat sat"):
        torch.autograd.backward(model.lm_head.output.sum())
