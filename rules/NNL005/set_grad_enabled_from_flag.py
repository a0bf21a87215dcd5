"""`torch.set_grad_enabled(flag)` around the trace, with the flag on: a training step written to
share code with evaluation. The mode is not known statically to be off.
"""
import torch

training = True
with torch.set_grad_enabled(training):
    with model.trace("the mat sat on a cat"):
        loss = model.lm_head.output.sum()
        if training:
            loss.backward()

assert model.lm_head.weight.grad is not None
