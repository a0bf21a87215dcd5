"""A parenthesised last argument on its own line, with and without a trailing comma."""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        loss = model.lm_head.output.sum()
        loss.backward(
            (torch.ones_like(loss)),
            retain_graph=True
        )
    with tracer.invoke("the cat"):
        torch.autograd.grad(
            model.lm_head.output.sum(),
            (model.lm_head.weight, model.transformer.ln_f.weight),
            retain_graph=True,
        )
    with tracer.invoke("a dog"):
        model.lm_head.output.sum().backward()
