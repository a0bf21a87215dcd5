"""The output is saved, then replaced by a new tensor (`.output = torch.zeros_like(...)`).

Replacing binds a new tensor as the module's output; the saved one is untouched.
"""
import torch

with model.trace("a dog ran"):
    before = model.transformer.h[1].output.save()
    model.transformer.h[1].output = torch.zeros_like(model.transformer.h[1].output)
    logits = model.lm_head.output.save()

assert before.abs().sum().item() > 0
