"""A helper whose parameter is named `model` traces the probe it is given, inside the language
model's trace: the parameter stands for the probe, a different model, so this runs.
"""
import torch
from nnsight import NNsight

probe = NNsight(torch.nn.Linear(32, 2))


def run_probe(model, hidden):
    with model.trace(hidden):
        scores = model.output.save()
    return scores


with model.trace("the cat sat"):
    hidden = model.transformer.ln_f.output
    scores = run_probe(probe, hidden.detach())
    scores_kept = scores.save()

assert scores_kept.shape == (1, 3, 2)
