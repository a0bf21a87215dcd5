"""`model.output` is ready only after lm_head, so an lm_head loss runs before a `model.output` loss.

The lm_head backward of the second invoke frees the graph; the `model.output` backward runs last and
fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.output.logits.sum().backward()
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()  # expect: NNL001
