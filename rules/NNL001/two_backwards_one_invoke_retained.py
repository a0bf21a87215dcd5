"""One invoke backpropagates two losses; the first retains the graph.

The run is clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        logits = model.lm_head.output
        logits.sum().backward(retain_graph=True)
        logits.pow(2).mean().backward()
