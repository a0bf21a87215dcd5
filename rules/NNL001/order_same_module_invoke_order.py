"""Two invokes wait on the same module (h[0]); they run in invoke order.

The first invoke's backward frees the graph the second one needs.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.transformer.h[0].output.sum().backward()  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.transformer.h[0].output.sum().backward(retain_graph=True)
