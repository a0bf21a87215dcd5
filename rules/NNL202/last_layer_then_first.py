"""`h[-1]` (the last block) is read before `h[0]` in one invoke of a batched trace.
"""
# runtime-raises: 'model.transformer.h.0.output.i0' was requested but the model already ran past it
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        last = model.transformer.h[-1].output.save()
        first = model.transformer.h[0].output.save()  # expect: NNL202
