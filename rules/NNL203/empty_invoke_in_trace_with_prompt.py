"""An empty `tracer.invoke()` (the whole batch) inside a generate that already has its prompt.
"""
# runtime-raises: Cannot invoke while the model is already running.
with model.generate("hello world", max_new_tokens=2) as tracer:
    with tracer.invoke():  # expect: NNL203
        tokens = tracer.result.save()
