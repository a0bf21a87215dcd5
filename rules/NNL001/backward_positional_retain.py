"""`loss.backward(None, True)`: the second positional argument of `Tensor.backward` is
`retain_graph`.

The run is clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(None, True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
