"""A multi-line `torch.autograd.grad` call, one argument per line with a trailing comma."""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        (weight_grad,) = torch.autograd.grad(
            model.lm_head.output.sum(),
            model.lm_head.weight,
        )
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward()
