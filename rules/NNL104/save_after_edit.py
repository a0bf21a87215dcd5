"""The output is zeroed first and saved afterwards, to record the ablated activation.

The saved value is meant to show the edit: nothing is edited after the save.
"""
with model.trace("hello world"):
    model.transformer.h[0].output[:, 0, :] = 0
    ablated = model.transformer.h[0].output.save()

assert ablated[:, 0, :].abs().sum().item() == 0.0
