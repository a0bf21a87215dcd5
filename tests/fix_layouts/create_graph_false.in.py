"""`create_graph=False` already given: the keyword goes after it, the flag stays."""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(create_graph=False)
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward(create_graph=False)
