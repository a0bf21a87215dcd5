"""Two backward blocks in one trace, each reading one layer's gradient: the first layer's in the
first block, the second layer's in the second.

Order is per backward block: each block starts its own backward pass.
"""
with model.trace("the mat sat on a cat"):
    first = model.transformer.h[0].output
    second = model.transformer.h[1].output
    loss = model.lm_head.output.sum()
    with loss.backward(retain_graph=True):
        first_grad = first.grad.save()
    with loss.backward():
        second_grad = second.grad.save()

assert first_grad is not None and second_grad is not None
