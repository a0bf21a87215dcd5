"""The trace and its invoke are opened on one `with` line.

The invoke is entered before the trace has started collecting invokes, so it fails at once; the
finding says that (not that the body opens no invoke).
"""
# runtime-raises: 'NoneType' object has no attribute 'add'
with model.trace() as tracer, tracer.invoke("the cat sat"):  # expect: NNL204
    logits = model.lm_head.output.save()
