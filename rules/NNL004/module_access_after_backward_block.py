"""A backward on a first-layer loss, then the logits read AFTER its block, back in the forward.

Once the backward block is done the forward goes on: the later module's output is served.
"""
with model.trace("the cat ran"):
    first = model.transformer.h[0].output
    with first.sum().backward():
        first_grad = first.grad.save()
    logits = model.lm_head.output.save()

assert first_grad.shape == (1, 3, 32)
assert logits.shape == (1, 3, 12)
