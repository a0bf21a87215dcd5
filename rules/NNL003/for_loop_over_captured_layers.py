"""Layer outputs captured in a loop over the layers, gradients read in a loop over the same list.

The list is in forward order, so the second iteration asks for a gradient that has gone by.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
grads = []
with model.trace("the cat sat"):
    captured = []
    for layer in model.transformer.h:
        captured.append(layer.output)
    with model.lm_head.output.sum().backward():
        for activation in captured:
            grads.append(activation.grad.save())  # expect: NNL003
