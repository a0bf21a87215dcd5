"""A constant set before the trace and only read inside it: nothing is read after the trace."""
n = 3
with model.trace("the cat sat"):
    n = 2
    h = model.transformer.h[0].output[:, :n].save()

assert h.shape[1] == 2
