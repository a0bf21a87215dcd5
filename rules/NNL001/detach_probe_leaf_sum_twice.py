"""A detached probe of the logits made a leaf (`detach().requires_grad_()`), backpropagated twice
through `sum`.

The probe's graph is cut from the model, and `sum` over a leaf saves no tensors, so nothing is
freed: clean.
"""
with model.trace("the cat sat on the mat"):
    probe = model.lm_head.output.detach().requires_grad_()
    probe.sum().backward()
    probe.sum().backward()
    probe_grad = probe.grad.save()
assert float(probe_grad.max()) == 2.0
