"""`torch.no_grad()` inside a trace around a read, in a trace with no backward and no `.grad`.

The grad mode leaks into the forward up to h[0], but nothing needs gradients: harmless.
"""
import torch

with model.trace("the cat ran"):
    with torch.no_grad():
        first = model.transformer.h[0].output.save()
    second = model.transformer.h[1].output.save()

assert not first.requires_grad
assert second.shape == first.shape
