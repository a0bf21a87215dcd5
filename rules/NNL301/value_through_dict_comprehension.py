"""Saved per-layer outputs collected in a dict are unwrapped with `.value` in a comprehension.

The dict holds the saved tensors themselves on 0.5+, and a tensor has no `.value`.
"""
# runtime-raises: 'Tensor' object has no attribute 'value'
saved = {}
with model.trace("the cat sat"):
    for i, block in enumerate(model.transformer.h):
        saved[i] = block.output.save()

shapes = {k: v.value.shape for k, v in saved.items()}  # expect: NNL301
