"""A trace with two invokes inside a function decorated with `@torch.no_grad()`.

No graph is built, so the first backward fails with "does not require grad", not NNL001's error.
"""
# runtime-raises: does not require grad
import torch


@torch.no_grad()
def attribute(lm):
    with lm.trace() as tracer:
        with tracer.invoke("hello world"):
            lm.lm_head.output.sum().backward()  # expect: NNL005
        with tracer.invoke("the cat sat"):
            lm.lm_head.output.sum().backward()  # expect: NNL005


attribute(model)
