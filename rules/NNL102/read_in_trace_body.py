"""A value bound inside an invoke is printed by the trace body right after the invoke.

Invoke bodies run when the trace exits; the trace body runs first, so `h` is not bound yet.
"""
# runtime-raises: name 'h' is not defined
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        h = model.transformer.h[0].output.save()
    print(h.shape)  # expect: NNL102
