"""Backward options come from `**kw` with `kw` a dict literal holding `retain_graph: False`.

The first backward frees the shared graph and the second fails.
"""
backward_options = {"retain_graph": False}

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(**backward_options)  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
