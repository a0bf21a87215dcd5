"""A `tracer.barrier(2)` called in both invokes before the second reads the first's value.

The barrier holds the second invoke until the first has reached it, after binding `clean`.
"""
with model.trace() as tracer:
    barrier = tracer.barrier(2)
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[0].output[:, -1, :]
        barrier()
    with tracer.invoke("a dog ran"):
        barrier()
        model.transformer.h[0].output[:, -1, :] = clean
        patched = model.lm_head.output.save()

print(patched.shape)
