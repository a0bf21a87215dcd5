"""Replacing the attention output with a rebuilt tuple: the whole `.output` is assigned, which is how
nnsight swaps a tuple output.
"""
import torch

with model.trace("a dog ran"):
    attn_out = model.transformer.h[1].attn.output
    model.transformer.h[1].attn.output = (attn_out[0] * 0, *attn_out[1:])
    swapped = model.transformer.h[1].attn.output[0].save()

assert torch.count_nonzero(swapped) == 0
