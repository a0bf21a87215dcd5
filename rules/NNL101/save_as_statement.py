"""The value is bound first and saved by a separate `x.save()` statement.

`.save()` marks the object itself, so the name bound to it leaves the trace.
"""
with model.trace("the cat sat"):
    attn = model.transformer.h[0].attn.output[0]
    attn.save()

print(attn.shape)
