"""A layer's output is read inside `torch.profiler.record_function(...)`, a `with` block that is
not a backward; the backward block after it reads only `.grad`.
"""
import torch

with model.trace("the dog ran"):
    with torch.profiler.record_function("capture"):
        hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()

assert hidden_grad is not None
