"""One invoke saves every block's output in a loop over `model.transformer.h`, then backpropagates
lm_head; another backpropagates h[0] with retain.

The h[0] backward runs first and keeps the graph; the lm_head backward runs last: clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        outputs = [layer.output.save() for layer in model.transformer.h]
        model.lm_head.output.sum().backward()
    with tracer.invoke("the cat sat"):
        model.transformer.h[0].output.sum().backward(retain_graph=True)
