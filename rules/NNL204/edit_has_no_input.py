"""`model.edit(inplace=True)` takes no input and needs no invoke: it records a default intervention
that every later trace runs. It is not a trace without input.
"""
import torch

try:
    with model.edit(inplace=True):
        model.transformer.h[0].mlp.output[:] = 0
    with model.trace("the cat sat"):
        mlp = model.transformer.h[0].mlp.output.save()
finally:
    model.clear_edits()

assert torch.count_nonzero(mlp) == 0
