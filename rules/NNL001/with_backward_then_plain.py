"""The first invoke reads a gradient inside `with loss.backward():`, the second calls a plain
`.backward()`.

The `with` form runs a real backward that frees the shared graph, so the plain one fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        hidden = model.transformer.h[1].output
        loss = model.lm_head.output.sum()
        with loss.backward():  # expect: NNL001
            grad = hidden.grad.save()
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
