"""Zeroing the first layer's gradient, then reading the second layer's, in one backward block.

Assigning `.grad` waits for that gradient just like reading it: the second layer's has gone by.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
import torch

with model.trace("the mat sat on a cat"):
    first = model.transformer.h[0].output
    second = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        first.grad = torch.zeros_like(first)
        second_grad = second.grad.save()  # expect: NNL003
