"""One invoke backpropagates two losses over the same logits without retaining.

The first backward frees the graph the second needs.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        logits = model.lm_head.output
        logits.sum().backward()  # expect: NNL001
        logits.pow(2).mean().backward()
