"""Activations stored in forward order, their gradients read with `range(n)` in the same order.

The comprehension asks for layer 0 first; layer 1's gradient has already gone by when it asks next.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
with model.trace("a dog ran"):
    hs = [model.transformer.h[i].output for i in range(2)]
    with model.lm_head.output[0, -1].max().backward():
        grads = [hs[i].grad.save() for i in range(2)]  # expect: NNL003
