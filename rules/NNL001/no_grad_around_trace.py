"""Two backwards in a trace opened inside `with torch.no_grad():`.

The forward runs without autograd, so there is no graph to free: the FIRST backward fails with
"does not require grad". That is not NNL001's bug, and `retain_graph=True` would not help.
"""
# runtime-raises: does not require grad
import torch

with torch.no_grad():
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            model.lm_head.output.sum().backward()  # expect: NNL005
        with tracer.invoke("the cat sat"):
            model.lm_head.output.sum().backward()  # expect: NNL005
