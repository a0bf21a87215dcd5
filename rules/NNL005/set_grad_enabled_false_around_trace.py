"""`torch.set_grad_enabled(False)` used as a context manager around a trace with a backward.
"""
# runtime-raises: element 0 of tensors does not require grad and does not have a grad_fn
import torch

with torch.set_grad_enabled(False):
    with model.trace("the mat sat"):
        model.lm_head.output.sum().backward()  # expect: NNL005
