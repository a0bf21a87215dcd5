"""Activations saved in a trace train a linear probe afterwards; the probe's `.grad` is read.

The backward and the `.grad` read are plain torch outside any trace, on the probe's parameters.
"""
import torch

with model.trace("the cat sat on the mat"):
    features = model.transformer.h[1].output.save()

probe = torch.nn.Linear(32, 2)
loss = probe(features.detach()).sum()
loss.backward()
assert probe.weight.grad is not None
