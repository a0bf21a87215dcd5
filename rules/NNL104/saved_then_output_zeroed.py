"""A block's output is saved, then the same output is zeroed in place to ablate the block.

`.save()` keeps a reference, not a copy: the saved value shows the zeros.
"""
with model.trace("the cat sat"):
    before = model.transformer.h[0].output.save()  # expect: NNL104
    model.transformer.h[0].output[:] = 0

assert before.abs().sum().item() == 0.0
