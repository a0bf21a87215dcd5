"""The model is traced through an alias (`lm = model`), with two invokes each calling backward.

The first backward frees the shared graph and the second fails.
"""
lm = model

with lm.trace() as tracer:
    with tracer.invoke("hello world"):
        lm.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("the cat sat"):
        lm.lm_head.output.sum().backward()
