"""GPT-2's block `h[0]` returns a tensor under transformers 5, so `h[0].output[0] = ...` assigns the
first batch row (the rule only knows attention modules as tuples and stays silent on blocks).
"""
import torch

with model.trace("the cat sat"):
    model.transformer.h[0].output[0] = torch.zeros(3, 32)
    block = model.transformer.h[0].output.save()

assert torch.count_nonzero(block[0]) == 0
