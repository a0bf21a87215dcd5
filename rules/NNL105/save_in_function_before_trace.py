"""A setup function saves a steering vector when it builds it, before any trace opens.

The function is called at module level; its `.save()` runs outside a trace.
"""
# runtime-raises: save() was called outside a trace
import torch


def make_direction():
    direction = torch.randn(32)
    return direction.save()  # expect: NNL105


steer = make_direction()
with model.trace("hello world"):
    model.transformer.h[0].output[:, -1, :] += steer
