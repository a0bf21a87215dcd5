"""Two invokes read layers in opposite orders: each invoke follows the forward on its own, so
the second invoke reading `h[0]` after the first read `h[1]` is fine.
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        late = model.transformer.h[1].output.save()
    with tracer.invoke("a dog ran"):
        early = model.transformer.h[0].output.save()

assert late.shape == early.shape == (1, 3, 32)
