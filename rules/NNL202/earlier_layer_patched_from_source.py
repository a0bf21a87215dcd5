"""Activation patching the right way round: layer 1's output is overwritten with layer 0's, so
the right-hand side (layer 0) is read first and the target (layer 1) after it.
"""
import torch

with model.trace("the cat sat"):
    source = model.transformer.h[0].output.clone().save()
    model.transformer.h[1].output[:] = model.transformer.h[0].output
    patched = model.transformer.h[1].output.save()

assert torch.equal(source, patched)
