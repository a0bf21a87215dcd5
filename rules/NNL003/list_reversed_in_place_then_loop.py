"""Layer outputs captured in forward order, the list reversed in place, then a plain loop over it
reads the gradients.

After `reverse()` the loop visits the last layer first: backward order.
"""
grads = []
with model.trace("the cat sat"):
    captured = [layer.output for layer in model.transformer.h]
    captured.reverse()
    with model.lm_head.output.sum().backward():
        for activation in captured:
            grads.append(activation.grad.save())

assert len(grads) == 2
