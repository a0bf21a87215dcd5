"""An h[0] loss in the second invoke runs before an h[1] loss in the first.

The h[0] backward frees the graph the h[1] backward still needs.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.transformer.h[1].output.sum().backward()
    with tracer.invoke("the cat sat"):
        model.transformer.h[0].output.sum().backward()  # expect: NNL001
