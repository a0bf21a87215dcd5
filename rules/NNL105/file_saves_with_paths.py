"""Saved activations are written to disk with `torch.save`, `numpy.save` and the tokenizer's `save_pretrained`.

These are file writers with a path argument, not nnsight's `.save()`.
"""
import tempfile
from pathlib import Path

import numpy
import torch

with model.trace("hello world"):
    hidden = model.transformer.h[1].output.save()

with tempfile.TemporaryDirectory() as tmp:
    torch.save(hidden, Path(tmp) / "hidden.pt")
    numpy.save(Path(tmp) / "hidden.npy", hidden.detach().numpy())
    model.tokenizer.save_pretrained(tmp)
    assert (Path(tmp) / "hidden.pt").exists()
