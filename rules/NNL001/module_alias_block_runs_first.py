"""The second invoke names `h[1]` through a variable (`layer = model.transformer.h[1]`).

Its backward still runs when the forward reaches h[1], before the first invoke's lm_head backward,
so it is the one that frees the graph.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()
    with tracer.invoke("the cat sat"):
        layer = model.transformer.h[1]
        layer.output.sum().backward()  # expect: NNL001
