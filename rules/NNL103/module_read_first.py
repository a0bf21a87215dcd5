"""The second invoke binds its own block output first, then writes the first invoke's value into it.

Waiting on `h[0]` first lets the first invoke run up to `h[0]` and bind `clean`.
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[0].output[:, -1, :]
    with tracer.invoke("a dog ran"):
        hidden = model.transformer.h[0].output
        hidden[:, -1, :] = clean
        patched = model.lm_head.output.save()

print(patched.shape)
