"""Gradients are read inside `with loss.backward():` from the last layer to the first, the order
backward reaches them: that is the reverse of forward order and correct.
"""
with model.trace("a dog ran"):
    h0 = model.transformer.h[0].output
    h1 = model.transformer.h[1].output
    loss = model.lm_head.output.sum()
    with loss.backward():
        grad_late = h1.grad.save()
        grad_early = h0.grad.save()

assert grad_late.shape == grad_early.shape == (1, 3, 32)
