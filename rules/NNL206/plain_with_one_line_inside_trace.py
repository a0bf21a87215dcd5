"""One-line `with` statements that are not traced: `torch.no_grad()` inside a trace body and a file
outside any trace are ordinary Python.
"""
import tempfile

import torch

with model.trace("a dog ran"):
    hidden = model.transformer.h[0].output
    with torch.no_grad(): norm = hidden.norm().save()

with tempfile.TemporaryFile("w+") as handle: handle.write("done")

assert norm.item() > 0
