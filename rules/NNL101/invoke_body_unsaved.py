"""Two invokes; the second binds its logits without `.save()`, and they are read after the trace.

A value bound inside an invoke leaves the trace only when saved, like one bound in the trace body.
"""
# runtime-raises: name 'other' is not defined
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        base = model.lm_head.output.save()
    with tracer.invoke("the cat"):
        other = model.lm_head.output  # expect: NNL101

print((base - other).abs().max())
