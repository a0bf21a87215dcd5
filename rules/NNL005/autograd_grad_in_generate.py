"""`torch.autograd.grad` inside `model.generate(...)`: no graph under generate's `no_grad`.
"""
# runtime-raises: does not require grad
import torch

with model.generate("hello world", max_new_tokens=2):
    hidden = model.transformer.h[0].output
    (hidden_grad,) = torch.autograd.grad(  # expect: NNL005
        model.lm_head.output.sum(), hidden
    )
