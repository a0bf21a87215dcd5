"""`model.trace("...")` already got its input, so its whole body is one implicit invoke; an
invoke inside it is nested.
"""
# runtime-raises: Cannot invoke while the model is already running.
with model.trace("the cat sat") as tracer:
    with tracer.invoke("a dog ran"):  # expect: NNL203
        other = model.transformer.h[0].output.save()
