"""The cross-invoke embedding swap as nnsight's agent guide writes it: `wte.output = embeddings`.

The right side `embeddings` is read before the second invoke waits on `wte`, so it is unbound.
"""
# runtime-raises: name 'embeddings' is not defined
with model.trace() as tracer:
    with tracer.invoke("the cat sat on"):
        embeddings = model.transformer.wte.output
        first = model.lm_head.output.save()
    with tracer.invoke("a a a a"):
        model.transformer.wte.output = embeddings  # expect: NNL103
        second = model.lm_head.output.save()
