"""A helper decorated with `@torch.enable_grad()` runs the trace with a backward; a caller wraps it
in `torch.no_grad()`. The decorator turns gradients back on for the trace.
"""
import torch


@torch.enable_grad()
def gradient_norm(lm, prompt):
    with lm.trace(prompt):
        hidden = lm.transformer.h[0].output
        with lm.lm_head.output.sum().backward():
            norm = hidden.grad.norm().save()
    return norm


with torch.no_grad():
    value = gradient_norm(model, "hello world")

assert value > 0
