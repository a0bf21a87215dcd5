"""A trace opened inside `with torch.no_grad():` holds a backward block.

The forward builds no graph: nnsight's backward session refuses to start.
"""
# runtime-raises: This tensor does not require grad, so a backward session cannot produce gradients
import torch

with torch.no_grad():
    with model.trace("the dog sat on the mat"):
        hidden = model.transformer.h[1].output
        with model.lm_head.output.sum().backward():  # expect: NNL005
            hidden_grad = hidden.grad.save()
