"""The saved slice is `.detach().clone()`d; the output is scaled in place afterwards through an alias.

The clone breaks the aliasing that `.detach()` alone keeps.
"""
with model.trace("a dog ran"):
    last = model.transformer.h[1].output[:, -1, :].detach().clone().save()
    out = model.transformer.h[1].output
    out *= 0

assert last.abs().sum().item() > 0
