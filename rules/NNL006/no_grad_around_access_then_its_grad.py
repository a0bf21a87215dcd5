"""`with torch.no_grad():` around a layer's access, then that layer's gradient read in the backward
block.

The layer ran under no_grad, so its output does not require grad and no hook can be put on it.
"""
# runtime-raises: cannot register a hook on a tensor that doesn't require gradient
import torch

with model.trace("a dog ran"):
    with torch.no_grad():  # expect: NNL006
        hidden = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()
