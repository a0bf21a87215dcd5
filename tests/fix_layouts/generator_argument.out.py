"""`torch.autograd.backward` over a generator of losses: the generator gets its own parentheses."""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        torch.autograd.backward((logits.sum() for logits in [model.lm_head.output]), retain_graph=True)
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward()
