"""nnsight's README shape: the later layer's gradient is read, then written into the earlier one's.

Late before early is backward order: both accesses are served.
"""
with model.trace("the cat ran"):
    earlier = model.transformer.h[0].output
    later = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        later_grad = later.grad.save()
        earlier.grad = later_grad

assert later_grad is not None
