"""Retaining on the backward written first does not help when the other one runs first.

The h[1] backward (second invoke) runs before the lm_head one, frees the graph, and the retaining
lm_head backward fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=True)
    with tracer.invoke("the cat sat"):
        model.transformer.h[1].output.sum().backward()  # expect: NNL001
