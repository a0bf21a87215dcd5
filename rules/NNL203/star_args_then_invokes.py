"""The trace takes `*batch`: an empty tuple is no input at all, so the invokes inside are the
batch. `*args` is unknown, never "has an input".
"""
batch = ()
with model.trace(*batch) as tracer:
    with tracer.invoke("hello world"):
        hidden = model.transformer.h[1].output.save()

assert hidden.shape == (1, 2, 32)
