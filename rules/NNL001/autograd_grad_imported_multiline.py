"""`from torch.autograd import grad` called over several lines, then a plain `.backward()` in a
later invoke.

The `grad` call frees the shared graph (its marker sits on the line of the name `grad`); the
backward fails.
"""
from torch.autograd import grad

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        loss = model.lm_head.output.sum()
        (weight_grad,) = grad(  # expect: NNL001
            loss,
            model.lm_head.weight,
            create_graph=False,
        )
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
