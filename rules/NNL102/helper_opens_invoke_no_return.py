"""A helper opens an invoke that saves into a dict passed in, and returns nothing the invoke binds.

The results are read after the trace, when the invoke bodies have run.
"""


def add_prompt(tracer, prompt, into):
    with tracer.invoke(prompt):
        into[prompt] = model.lm_head.output[:, -1, :].argmax(-1).save()
    return len(into)


preds = {}
with model.trace() as tracer:
    add_prompt(tracer, "hello world", preds)
    add_prompt(tracer, "the cat sat", preds)

print(preds)
