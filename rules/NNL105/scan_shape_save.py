"""`model.scan(...)` runs the forward on fake tensors to read shapes; a shape is saved inside it.

A scan is a trace context: the save runs with it open.
"""
with model.scan("hello world"):
    width = model.transformer.h[0].output.shape[-1].save()

assert width == 32
