"""The last position's hidden state is saved; the output is then scaled in place through another name.

A slice is a view of the output's storage, so `*=` on the output changes the saved slice.
"""
with model.trace("a dog ran on"):
    last = model.transformer.h[1].output[:, -1, :].save()  # expect: NNL104
    out = model.transformer.h[1].output
    out *= 0

assert last.abs().sum().item() == 0.0
