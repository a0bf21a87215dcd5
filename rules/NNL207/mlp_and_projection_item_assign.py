"""Item assignment into tensor outputs whose paths mention attention: `attn.c_attn` (the fused QKV
projection) and `attn.c_proj` are plain layers returning tensors, and `mlp` returns a tensor.
"""
import torch

with model.trace("hello world"):
    model.transformer.h[0].attn.c_attn.output[0] = 0
    model.transformer.h[0].attn.c_proj.output[0] = 0
    model.transformer.h[0].mlp.output[0] = 0
    mlp = model.transformer.h[0].mlp.output.save()

assert torch.count_nonzero(mlp) == 0
