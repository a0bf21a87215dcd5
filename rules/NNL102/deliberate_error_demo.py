"""A test-style demo shows that the trace body cannot see an invoke's value yet.

The `except NameError` catches exactly what the mistake raises: a deliberate demo, not a finding.
"""
try:
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            h = model.transformer.h[0].output.save()
        print(h.shape)
except NameError:
    print("the invoke body had not run yet")
