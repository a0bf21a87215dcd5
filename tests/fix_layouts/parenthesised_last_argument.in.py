"""A parenthesised last argument: the keyword goes after its closing parenthesis, not inside it."""
import torch
from torch.autograd import grad

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        loss = model.lm_head.output.sum()
        loss.backward((torch.ones_like(loss)))
    with tracer.invoke("the cat"):
        out = model.lm_head.output
        (first, second) = torch.autograd.grad(out.sum(), (model.lm_head.weight, model.transformer.ln_f.weight))
    with tracer.invoke("a dog"):
        (third,) = grad(model.lm_head.output.sum(), inputs=(model.lm_head.weight,))
    with tracer.invoke("a bird"):
        torch.autograd.backward((model.lm_head.output.sum()))
    with tracer.invoke("a fish"):
        loss = model.lm_head.output.mean()
        loss.backward(((torch.ones_like(loss))) )
    with tracer.invoke("a horse"):
        model.lm_head.output.sum().backward()
