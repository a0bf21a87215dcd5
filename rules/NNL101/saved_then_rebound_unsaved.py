"""A saved activation is rebound inside the trace to a value computed from it, which is not saved.

Only the object `.save()` marked leaves the trace; the product is another tensor, so `x` is undefined.
"""
# runtime-raises: name 'x' is not defined
with model.trace("hello world"):
    x = model.transformer.h[0].output.save()
    x = x * 2  # expect: NNL101

print(x.norm())
