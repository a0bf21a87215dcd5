"""A backward on a first-layer loss, and inside its block the logits (a LATER module) are read.

Even a module the forward has not reached yet cannot be read inside a backward block: the block
runs the backward, not the forward, and the read fails.
"""
# runtime-raises: 'model.lm_head.output.i0' was requested but the model already ran past it
with model.trace("the cat sat"):
    first = model.transformer.h[0].output
    with first.sum().backward():
        first_grad = first.grad.save()
        logits = model.lm_head.output.save()  # expect: NNL004
