"""The tracer is used through an alias (`t = tracer`) to open two invokes, each with a backward.

The alias changes nothing: the first backward frees the shared graph and the second fails.
"""
with model.trace() as tracer:
    t = tracer
    with t.invoke("hello world"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with t.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
