"""A plain `.backward()` in the first invoke, a `with loss.backward():` block in the second.

The plain call frees the shared graph, so the `with` block's backward fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()  # expect: NNL001
    with tracer.invoke("the cat sat"):
        hidden = model.transformer.h[1].output
        loss = model.lm_head.output.sum()
        with loss.backward():
            grad = hidden.grad.save()
