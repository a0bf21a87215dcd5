"""`create_graph=True` retains the graph too (retain_graph defaults to create_graph).

The run is clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(create_graph=True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
