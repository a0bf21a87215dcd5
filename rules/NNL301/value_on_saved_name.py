"""Pre-0.4 code reads a saved activation through `.value` after the trace.

Since nnsight 0.4 the saved name is bound to the tensor itself, which has no `.value`.
"""
# runtime-raises: 'Tensor' object has no attribute 'value'
with model.trace("hello world"):
    hidden = model.transformer.h[-1].output.save()

print(hidden.value.shape)  # expect: NNL301
