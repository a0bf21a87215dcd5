"""Unsaved temporaries used only inside the trace to build the one saved value.

Nothing unsaved is read after the block.
"""
with model.trace("a dog ran on"):
    pre = model.transformer.h[0].output
    post = model.transformer.h[1].output
    delta = (post - pre).norm(dim=-1).save()

print(delta.shape)
