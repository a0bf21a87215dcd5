"""Inputs given by keyword, `input_ids=` and `inputs_embeds=`, are inputs: no invoke is needed.
"""
import torch

with model.trace(input_ids=torch.tensor([[4, 5, 6]])):
    from_ids = model.lm_head.output.save()
with model.trace(inputs_embeds=torch.zeros(1, 3, 32)):
    from_embeds = model.lm_head.output.save()

assert from_ids.shape == from_embeds.shape == (1, 3, 12)
