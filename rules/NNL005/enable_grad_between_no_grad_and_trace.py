"""An outer `torch.no_grad()` (an evaluation harness), but `torch.enable_grad()` is opened around
the trace itself: the forward builds a graph and the backward block works.
"""
import torch

with torch.no_grad():
    with torch.enable_grad():
        with model.trace("the cat ran"):
            hidden = model.transformer.h[0].output
            with model.lm_head.output.sum().backward():
                hidden_grad = hidden.grad.save()

assert hidden_grad is not None
