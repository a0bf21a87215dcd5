"""`torch.autograd.grad` in the first invoke, `.backward()` in the second.

`autograd.grad` frees the graph just like `.backward()` does, so the second call fails.
"""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        loss = model.lm_head.output.sum()
        (weight_grad,) = torch.autograd.grad(loss, model.lm_head.weight)  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
