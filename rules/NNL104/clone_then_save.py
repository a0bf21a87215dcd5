"""The output is cloned before saving, then zeroed in place.

The clone owns its memory, so the saved value keeps the activation as it was.
"""
with model.trace("the cat sat"):
    before = model.transformer.h[0].output.clone().save()
    model.transformer.h[0].output[:] = 0

assert before.abs().sum().item() > 0
