"""The trace body computes a steering target from the first invoke's value, before the second invoke.

The body between the invokes runs while the invokes are being collected, before either body ran.
"""
# runtime-raises: name 'clean' is not defined
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[0].output.save()
    target = clean[:, -1, :].detach()  # expect: NNL102
    with tracer.invoke("a dog ran"):
        model.transformer.h[0].output[:, -1, :] = target
