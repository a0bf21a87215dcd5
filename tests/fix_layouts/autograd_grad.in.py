"""`torch.autograd.grad(out, x)` and an imported alias of it get the keyword appended."""
import torch
from torch.autograd import grad as gradient_of

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        (first,) = torch.autograd.grad(model.lm_head.output.sum(), model.lm_head.weight)
    with tracer.invoke("the cat"):
        (second,) = gradient_of(model.lm_head.output.sum(), model.lm_head.weight)
    with tracer.invoke("a dog"):
        model.lm_head.output.sum().backward()
