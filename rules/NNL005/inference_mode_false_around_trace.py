"""`torch.inference_mode(False)` around the trace (inside code that otherwise runs in inference
mode): it turns inference mode OFF, so the backward works.
"""
import torch

with torch.inference_mode(False):
    with model.trace("the dog sat"):
        hidden = model.transformer.h[0].output
        with model.lm_head.output.sum().backward():
            hidden_grad = hidden.grad.save()

assert hidden_grad is not None
