"""The value is made at `h[0]` in the first invoke; the second invoke reads `h[1]` first, then patches it.

By the time the second invoke resumes at `h[1]`, the first invoke has long bound `clean`.
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[0].output[:, -1, :]
    with tracer.invoke("a dog ran"):
        hidden = model.transformer.h[1].output
        hidden[:, -1, :] = clean
        patched = model.lm_head.output.save()

print(patched.shape)
