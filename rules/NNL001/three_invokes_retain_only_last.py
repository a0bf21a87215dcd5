"""Three invokes where only the last backward retains.

The first backward frees the shared graph and the second fails; both earlier calls need
`retain_graph=True`.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("a dog ran"):
        model.lm_head.output.sum().backward(retain_graph=True)
