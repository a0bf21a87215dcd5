"""The h[1] backward of the second invoke runs before the lm_head backward of the first, and it
retains.

The lm_head backward runs last at run time, so it may free the graph: the run is clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()
    with tracer.invoke("the cat sat"):
        model.transformer.h[1].output.sum().backward(retain_graph=True)
