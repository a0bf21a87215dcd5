"""On nnsight 0.4, `len()` of a module's output inside the trace fails.

The output is a graph proxy, not a tensor: its `__len__` returns another proxy, and Python's
`len()` wants an int (checked on 0.4.11).
"""
# target-version: 0.4
# runtime-raises: __index__ returned non-int
with model.trace("hello world"):
    hidden = model.transformer.h[0].output[0]
    n_tokens = len(hidden[0])  # expect: NNL507
    last = hidden[:, n_tokens - 1].save()
