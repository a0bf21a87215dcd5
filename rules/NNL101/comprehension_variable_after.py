"""Inside the trace `h` is an unsaved temporary; after it, a comprehension uses its own `h`.

A comprehension variable is local to the comprehension, so the trace's `h` is never read.
"""
with model.trace("the cat sat on"):
    h = model.transformer.h[0].output
    norms = h.norm(dim=-1).save()

print([round(float(h), 3) for h in norms[0]])
