"""A test that shows the cross-invoke read fails without a module read or barrier, catching it.

The `except NameError` catches exactly what the mistake raises: a deliberate demo, not a finding.
"""
try:
    with model.trace() as tracer:
        with tracer.invoke("the cat sat"):
            clean = model.transformer.h[0].output[:, -1, :]
        with tracer.invoke("a dog ran"):
            model.transformer.h[0].output[:, -1, :] = clean
except NameError as error:
    assert "clean" in str(error)
