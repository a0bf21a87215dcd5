"""A one-line call with a trailing comma, and single-quoted prompts."""
with model.trace() as tracer:
    with tracer.invoke('hello world'):
        model.lm_head.output.sum().backward(None, retain_graph=True,)
    with tracer.invoke('the cat'):
        model.lm_head.output.sum().backward()
