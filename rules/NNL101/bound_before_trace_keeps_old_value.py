"""The name was bound before the trace; inside, it is rebound to an activation without `.save()`.

The trace hands back only saved values, so after the block the name silently keeps its old value.
"""
import torch

h = torch.zeros(1)
with model.trace("hello world"):
    h = model.transformer.h[-1].output  # expect: NNL101

assert h.shape == (1,)
assert h.sum().item() == 0.0
