"""Each invoke saves its value; the values are compared after the trace.

After the `with` block every invoke body has run, so the saved names are bound.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        a = model.lm_head.output[:, -1, :].save()
    with tracer.invoke("the cat"):
        b = model.lm_head.output[:, -1, :].save()

print((a - b).norm())
