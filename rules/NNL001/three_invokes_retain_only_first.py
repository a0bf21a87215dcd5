"""Three invokes where only the first backward retains.

The first is fine, but the second frees the graph and the third fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(retain_graph=True)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("a dog ran"):
        model.lm_head.output.sum().backward()
