"""Which layer to attribute is chosen by an `if` before the backward block; the block reads only
the captured tensor's `.grad`.
"""
use_last = True
with model.trace("a cat sat on the mat"):
    if use_last:
        target = model.transformer.h[1].output
    else:
        target = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():
        target_grad = target.grad.save()

assert target_grad is not None
