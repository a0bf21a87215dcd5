"""A second `tracer.invoke` opened inside the first one's body.

The inner invoke's body runs while the model is already running, and nnsight refuses it.
"""
# runtime-raises: Cannot invoke while the model is already running.
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[0].output.save()
        with tracer.invoke("a dog ran"):  # expect: NNL203
            corrupt = model.transformer.h[0].output.save()
