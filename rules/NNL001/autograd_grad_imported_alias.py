"""`grad` imported under another name (`from torch.autograd import grad as weight_grad_of`), used in
two invokes.

The first call frees the shared graph and the second fails.
"""
from torch.autograd import grad as weight_grad_of

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        first = weight_grad_of(model.lm_head.output.sum(), model.lm_head.weight)  # expect: NNL001
    with tracer.invoke("the cat sat"):
        second = weight_grad_of(model.lm_head.output.sum(), model.lm_head.weight)
