"""An invoke whose body starts with `try: ... finally:`.
"""
# runtime-raises: A traced `with` block cannot start with `try:`
with model.trace() as tracer:
    with tracer.invoke("a dog ran"):  # expect: NNL206
        try:
            hidden = model.transformer.h[1].output.save()
        finally:
            done = True
