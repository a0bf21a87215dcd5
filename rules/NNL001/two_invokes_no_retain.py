"""Two invokes of one trace, each backpropagating its own lm_head loss, neither retaining.

Both invokes share one batched forward and one graph: the first backward frees it and the second
fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
