"""A multi-line call whose last argument has no trailing comma and a comment after it."""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(
            None,  # no explicit gradient
            retain_graph=True
        )
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward()
