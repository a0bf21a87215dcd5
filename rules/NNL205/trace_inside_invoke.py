"""A trace of the same model opened inside an invoke's body, which runs during the outer run.
"""
# runtime-raises: cyclic parent chain
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        first = model.transformer.h[0].output.save()
        with model.trace("a dog ran"):  # expect: NNL205
            second = model.transformer.h[0].output.save()
