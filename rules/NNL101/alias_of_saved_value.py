"""A saved activation is also bound to a second name inside the trace.

Both names refer to the one saved object, so both leave the trace.
"""
with model.trace("hello world"):
    resid = model.transformer.h[1].output.save()
    resid_last_layer = resid

assert resid_last_layer is resid
print(resid_last_layer.shape)
