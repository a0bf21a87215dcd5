"""Block 0's output is saved; block 1's output is zeroed in place.

The two outputs are different tensors, so block 0's saved value is untouched.
"""
with model.trace("a dog ran on"):
    first = model.transformer.h[0].output.save()
    model.transformer.h[1].output[:] = 0

assert first.abs().sum().item() > 0
