"""Two invokes, both backwards retain the graph.

Retaining on the last one too is wasteful but harmless: the run is clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward(retain_graph=True)
