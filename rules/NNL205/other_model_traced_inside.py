"""A probe (a different `NNsight` model) is traced inside the language model's trace, on a hidden
state: different models have different runs, so this works.
"""
import torch
from nnsight import NNsight

probe = NNsight(torch.nn.Sequential(torch.nn.Linear(32, 4)))
with model.trace("the cat sat"):
    hidden = model.transformer.h[0].output
    with probe.trace(hidden.detach()):
        scores = probe[0].output.save()

assert scores.shape == (1, 3, 4)
