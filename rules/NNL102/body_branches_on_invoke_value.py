"""The trace body branches on an invoke's value to decide whether to add a second invoke.

The condition is evaluated while collecting invokes, before the first invoke's body ran.
"""
# runtime-raises: name 'norm' is not defined
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        norm = model.transformer.h[1].output.norm().save()
    if norm > 0:  # expect: NNL102
        with tracer.invoke("a dog ran"):
            other = model.transformer.h[1].output.norm().save()
