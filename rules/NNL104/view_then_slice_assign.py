"""The output is saved through `.view(...)` (split into heads); the last position is then overwritten.

A view shares storage, so the saved heads show the overwrite.
"""
with model.trace("the cat sat on"):
    heads = model.transformer.h[0].attn.output[0].view(1, 4, 2, 16).save()  # expect: NNL104
    model.transformer.h[0].attn.output[0][:, -1, :] = 0

assert heads[:, -1].abs().sum().item() == 0.0
