"""Zeroing the attention output in place through its tensor (`attn.output[0][:] = 0`): the tuple is
indexed, not assigned into.
"""
import torch

with model.trace("the cat sat"):
    model.transformer.h[0].attn.output[0][:] = 0
    zeroed = model.transformer.h[0].attn.output[0].save()

assert torch.count_nonzero(zeroed) == 0
