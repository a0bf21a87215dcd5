"""`retain_graph=None` means "same as create_graph", i.e. False here.

The first backward frees the shared graph and the second fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=None)  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
