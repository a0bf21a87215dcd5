"""On nnsight 0.4, `range()` over a proxy's shape inside the trace fails.

`.shape[1]` of an output is itself a proxy until the trace runs, so `range()` gets no int
(checked on 0.4.11).
"""
# target-version: 0.4
# runtime-raises: __index__ returned non-int
with model.trace("the cat sat"):
    hidden = model.transformer.h[1].output[0]
    per_token = [hidden[:, i].norm().save() for i in range(hidden.shape[1])]  # expect: NNL507
