"""`retain_graph=keep` where `keep = False` a few lines up: the graph is not retained.

The first backward frees the shared graph and the second fails.
"""
keep = False

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=keep)  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
