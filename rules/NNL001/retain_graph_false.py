"""`retain_graph=False` (and `create_graph=False`) is the same as not retaining.

The first backward frees the shared graph and the second fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=False, create_graph=False)  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
