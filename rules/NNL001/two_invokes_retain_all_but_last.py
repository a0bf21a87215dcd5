"""Two invokes; the first backward retains the graph and the last one frees it.

This is the fix for the shared graph: the run is clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
