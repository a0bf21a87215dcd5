"""The embedding swap with the second invoke reading its own `wte` output first.

After the read, the first invoke has bound `embeddings`; the replacement then works.
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat on"):
        embeddings = model.transformer.wte.output
        first = model.lm_head.output.save()
    with tracer.invoke("a a a a"):
        own = model.transformer.wte.output
        model.transformer.wte.output = embeddings
        second = model.lm_head.output.save()

assert (first - second).abs().max() < 1e-5
