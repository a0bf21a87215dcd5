"""`loss.backward(None, None, True)`: the third positional argument is `create_graph`, which
retains.

The run is clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(None, None, True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
