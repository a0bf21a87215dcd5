"""`autograd.backward` imported as `from torch import autograd`, called in two invokes without
retaining.

The first call frees the shared graph and the second fails.
"""
from torch import autograd

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        autograd.backward([model.lm_head.output.sum()])  # expect: NNL001
    with tracer.invoke("the cat sat"):
        autograd.backward(model.lm_head.output.sum())
