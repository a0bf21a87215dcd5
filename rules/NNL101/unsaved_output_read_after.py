"""A block's output is bound inside the trace without `.save()` and printed after it.

Only saved values leave the outermost trace, so `h` is undefined after the `with` block.
"""
# runtime-raises: name 'h' is not defined
with model.trace("hello world"):
    h = model.transformer.h[0].output  # expect: NNL101

print(h.shape)
