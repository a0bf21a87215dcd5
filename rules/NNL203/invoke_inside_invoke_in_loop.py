"""Invokes made in a loop, each opening a "baseline" invoke inside its own body: every inner one is
nested.
"""
# runtime-raises: Cannot invoke while the model is already running.
with model.trace() as tracer:
    results = list().save()
    for prompt in ["the cat sat", "a dog ran"]:
        with tracer.invoke(prompt):
            results.append(model.lm_head.output)
            with tracer.invoke():  # expect: NNL203
                results.append(model.lm_head.output)
