"""A `@torch.no_grad()` helper summarises saved gradients after the trace; it touches no module.
"""
import torch


@torch.no_grad()
def summarise(gradient):
    return gradient.abs().mean().item()


with model.trace("the dog sat on the mat"):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()

assert summarise(hidden_grad) > 0
