"""A helper opens an invoke for its prompt and returns the value the invoke binds.

The invoke body has not run when the helper returns, so `h` is an unbound local there.
"""
# runtime-raises: cannot access local variable 'h'


def add_prompt(tracer, prompt):
    with tracer.invoke(prompt):
        h = model.transformer.h[1].output.save()
    return h  # expect: NNL102


with model.trace() as tracer:
    states = [add_prompt(tracer, p) for p in ("hello world", "the cat")]
