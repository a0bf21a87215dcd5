"""Backward options come from `**kw` with `kw` a dict literal holding `retain_graph: True`.

The first backward retains; the run is clean.
"""
backward_options = {"retain_graph": True}

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(**backward_options)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
