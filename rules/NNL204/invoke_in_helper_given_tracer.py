"""The trace has no input, but a helper called with the tracer opens the invoke.
"""
def run_prompt(tracer, prompt, store):
    with tracer.invoke(prompt):
        store.append(model.lm_head.output)


with model.trace() as tracer:
    store = list().save()
    run_prompt(tracer, "the cat sat", store)

assert len(store) == 1
