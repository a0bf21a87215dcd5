"""Steering the attention output at every generation step by item assignment: fails at step 0.
"""
# runtime-raises: 'tuple' object does not support item assignment
import torch

direction = torch.ones(32)
with model.generate("the cat sat", max_new_tokens=2) as tracer:
    for step in tracer.iter[:2]:
        model.transformer.h[1].attn.output[0] = model.transformer.h[1].attn.output[0] + direction  # expect: NNL207
