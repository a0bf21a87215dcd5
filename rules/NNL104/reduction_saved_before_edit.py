"""The norm of the output is saved, then the output is zeroed in place.

A reduction is a new tensor, not a view, so the saved norm keeps its value.
"""
with model.trace("the cat sat on"):
    norm = model.transformer.h[1].output.norm(dim=-1).save()
    model.transformer.h[1].output[:] = 0

assert norm.min().item() > 0
