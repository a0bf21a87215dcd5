"""Both invokes bind `last`; the second reads only the `last` it bound itself.

The read sees the second invoke's own binding, made after its module access.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        last = model.transformer.h[1].output[:, -1, :]
        a = last.norm().save()
    with tracer.invoke("the cat sat"):
        last = model.transformer.h[1].output[:, -1, :]
        b = last.norm().save()

print(float(a), float(b))
