"""An empty `tracer.invoke()` (it sees the whole batch) next to a prompt invoke, each with a
backward.

The empty invoke is part of the same forward and graph: the first backward frees it and the second
fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke():
        model.lm_head.output.mean().backward()
