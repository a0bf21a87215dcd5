"""The same block's `.output` read twice in one trace: nnsight 0.8.1 hands back the same tensor
the second time (its docs list this as an error; the runtime does not).
"""
with model.trace("hello world"):
    first = model.transformer.h[0].output.save()
    again = model.transformer.h[0].output.save()

assert first is again
