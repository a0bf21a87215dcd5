"""The trace takes `**options` built elsewhere: whether that holds an input cannot be read from the
code, so the invokes inside are not known to be nested (here it holds none, and they run).
"""
options = {}
with model.trace(**options) as tracer:
    with tracer.invoke("the cat sat"):
        a = model.transformer.h[0].output.save()
    with tracer.invoke("a dog ran"):
        b = model.transformer.h[0].output.save()

assert a.shape == b.shape == (1, 3, 32)
