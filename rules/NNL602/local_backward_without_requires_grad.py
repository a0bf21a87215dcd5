"""A local trace takes a gradient without `.requires_grad_`: the parameters of a model loaded here
require grad, so the forward builds a graph and the backward runs."""
with model.trace("the cat sat"):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():
        grad = hidden.grad.save()
assert grad.shape == (1, 3, 32)
