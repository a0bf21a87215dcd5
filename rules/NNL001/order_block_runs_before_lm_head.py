"""A block-output loss in a LATER invoke runs before an lm_head loss in an earlier invoke.

A backward runs when the forward reaches the module its invoke waits on: h[1] comes before lm_head,
so the h[1] backward runs first and frees the graph, and the lm_head backward (last at run time)
fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()
    with tracer.invoke("the cat sat"):
        model.transformer.h[1].output.sum().backward()  # expect: NNL001
