"""One invoke per prompt in a loop; the loop body appends each invoke's value after the invoke.

The append runs in the trace body, before any invoke body has run, so `last` is unbound.
"""
# runtime-raises: name 'last' is not defined
finals = []
with model.trace() as tracer:
    for prompt in ["hello world", "the cat sat", "a dog ran"]:
        with tracer.invoke(prompt):
            last = model.lm_head.output[:, -1, :].save()
        finals.append(last)  # expect: NNL102

print(len(finals))
