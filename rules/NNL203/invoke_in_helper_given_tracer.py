"""A helper receives the tracer and opens one invoke; it is called twice at the trace level.
"""
def add_prompt(tracer, prompt, store):
    with tracer.invoke(prompt):
        store.append(model.transformer.h[1].output[0, -1])


with model.trace() as tracer:
    last_tokens = list().save()
    add_prompt(tracer, "the cat sat", last_tokens)
    add_prompt(tracer, "a dog ran", last_tokens)

assert len(last_tokens) == 2
