"""After a trace with a backward, the gradient norm of every parameter of the `lm_head` and of the
first block: `p.grad` on parameters from `named_parameters()`.
"""
with model.trace("hello world"):
    model.lm_head.output[0, -1].max().backward()

norms = {
    name: parameter.grad.norm().item()
    for name, parameter in model.transformer.h[0].named_parameters()
    if parameter.grad is not None
}
assert norms
assert model.lm_head.weight.grad is not None
