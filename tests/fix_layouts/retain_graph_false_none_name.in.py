"""`retain_graph=False`, `=None` and `=keep` (a name bound once to False) each become `True`."""
keep = False

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=False)
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward(retain_graph=None, create_graph=False)
    with tracer.invoke("a dog"):
        model.lm_head.output.sum().backward(retain_graph=keep)
    with tracer.invoke("sat on"):
        model.lm_head.output.sum().backward(retain_graph=keep)
