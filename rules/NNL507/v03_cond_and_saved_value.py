"""On nnsight 0.3, `tracer.cond(...)` is the graph condition, and `.value` after the trace is a tensor.

`len()` of the envoy list is an int inside the trace (checked on 0.3.7).
"""
# target-version: 0.3
with model.trace("hello world") as tracer:
    n_layers = len(model.transformer.h)
    total = model.transformer.h[0].output[0].sum()
    with tracer.cond(total < -1e9):
        model.transformer.h[1].output[0][:] = 0
    after = model.transformer.h[1].output[0].save()

assert n_layers == 2
assert after.value.abs().sum() > 0
if after.value.sum() != 0:
    rows = len(after.value[0])
