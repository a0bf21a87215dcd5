"""Three invokes; the third steers with a difference computed from the first two, first thing.

The names come from earlier invokes that have not reached `h[1]` when the third starts.
"""
# runtime-raises: name 'pos' is not defined
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        pos = model.transformer.h[1].output.mean(dim=1)
    with tracer.invoke("a dog ran"):
        neg = model.transformer.h[1].output.mean(dim=1)
    with tracer.invoke("hello world"):
        direction = pos - neg  # expect: NNL103
        model.transformer.h[1].output[:, -1, :] += direction
        steered = model.lm_head.output.save()
