"""On nnsight 0.3, `len()` of a module's output inside the trace fails (checked on 0.3.7)."""
# target-version: 0.3
# runtime-raises: __index__ returned non-int
with model.trace("hello world"):
    n_tokens = len(model.transformer.h[0].output[0][0])  # expect: NNL507
