"""A call without arguments whose parentheses span two lines around a comment."""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(  # frees the shared graph
            retain_graph=True,
        )
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward()
