"""Three invokes, all backwards retain the graph.

The run is clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward(retain_graph=True)
    with tracer.invoke("a dog ran"):
        model.lm_head.output.sum().backward(retain_graph=True)
