"""A trace opened inside `with torch.inference_mode():` holds a backward block.
"""
# runtime-raises: This tensor does not require grad, so a backward session cannot produce gradients
import torch

with torch.inference_mode():
    with model.trace("the cat ran"):
        hidden = model.transformer.h[0].output
        with model.lm_head.output.sum().backward():  # expect: NNL005
            hidden_grad = hidden.grad.save()
