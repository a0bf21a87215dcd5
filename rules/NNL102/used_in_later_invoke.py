"""The first invoke's value is used inside the second invoke, after that invoke reads its own module.

Invoke bodies see each other's names; reading the module first lets the first invoke bind it.
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[0].output[:, -1, :]
    with tracer.invoke("a dog ran"):
        hidden = model.transformer.h[0].output
        hidden[:, -1, :] = clean
        patched = model.lm_head.output.save()

print(patched.shape)
