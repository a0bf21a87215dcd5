"""Three invokes, three lm_head backwards, none retaining.

The first two each free the graph a later one needs; at run time the second backward is the one that
fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("a dog ran"):
        model.lm_head.output.sum().backward()
