"""A trace inside `with torch.no_grad():` that only reads activations: no backward, nothing lost.
"""
import torch

with torch.no_grad():
    with model.trace("the dog ran"):
        hidden = model.transformer.h[1].output.save()

assert not hidden.requires_grad
