"""`retain_graph` given positionally to each backward-like callee becomes `True` in place."""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(None, True)
    with tracer.invoke("the cat"):
        torch.autograd.backward([model.lm_head.output.sum()], None, True)
    with tracer.invoke("a dog"):
        torch.autograd.grad(model.lm_head.output.sum(), model.lm_head.weight, None, True)
    with tracer.invoke("sat on"):
        model.lm_head.output.sum().backward(None, False)
