"""A loss on the token embeddings (wte) runs before any transformer block's loss.

The wte backward frees the embedding's saved indices, which the later h[0] backward needs.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.transformer.h[0].output.sum().backward()
    with tracer.invoke("the cat sat"):
        model.transformer.wte.output.pow(2).sum().backward()  # expect: NNL001
