"""A constant bound in the trace and read only inside it, then rebound after: fine."""
with model.trace("the cat sat"):
    k = 1
    h = model.transformer.h[k].output.save()

k = 0
assert k == 0 and h.shape[-1] == 32
