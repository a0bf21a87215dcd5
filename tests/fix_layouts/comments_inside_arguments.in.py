"""Comments on their own lines and after arguments inside a multi-line argument list."""
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        torch.autograd.grad(
            # what to differentiate
            model.lm_head.output.sum(),  # summed logits
            # with respect to
            model.lm_head.weight,  # tied to the embedding
            # no more arguments
        )
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward()
