"""Two invokes where only the LAST backward retains the graph.

Retaining on the last call is useless: the first backward already freed the shared graph, so the
second fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward(retain_graph=True)
