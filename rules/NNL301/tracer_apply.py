"""`tracer.apply(fn, ...)` runs a function inside the trace, as nnsight 0.4 needed.

Since 0.5 the body is real Python: call the function directly.
"""
# runtime-raises: 'InterleavingTracer' object has no attribute 'apply'
with model.trace("the cat sat") as tracer:
    n_layers = tracer.apply(len, model.transformer.h).save()  # expect: NNL301
