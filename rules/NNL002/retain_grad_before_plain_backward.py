"""`retain_grad()` on the activation, then a plain backward, then its `.grad`.

That is plain torch done right: the non-leaf keeps its gradient, and the read gives a real tensor.
"""
with model.trace("the cat sat on the mat"):
    hidden = model.transformer.h[0].output.save()
    hidden.retain_grad()
    model.lm_head.output.sum().backward()
    hidden_grad = hidden.grad.save()

assert hidden_grad is not None
assert hidden_grad.shape == hidden.shape
