"""`model.trace(prompt)` with a single backward that reads a block's gradient.

Nothing runs after it: the run is clean.
"""
with model.trace("the cat sat on the mat"):
    hidden = model.transformer.h[1].output
    loss = model.lm_head.output.sum()
    with loss.backward():
        grad = hidden.grad.save()
assert grad.shape[-1] == 32
