"""The agent guide's before/after pattern: clone-save before the edit, save after it.

The clone keeps the "before"; the plain save after the edit is meant to show it.
"""
with model.trace("hello world"):
    before = model.transformer.h[0].output.clone().save()
    model.transformer.h[0].output[:] = 0
    after = model.transformer.h[0].output.save()

assert before.abs().sum().item() > 0
assert after.abs().sum().item() == 0.0
