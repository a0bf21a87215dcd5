"""The final layer norm (ln_f) runs before lm_head, so its backward runs first even from a later
invoke.

The ln_f backward frees the graph and the lm_head backward fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()
    with tracer.invoke("the cat sat"):
        model.transformer.ln_f.output.sum().backward()  # expect: NNL001
