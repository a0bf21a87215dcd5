"""An invoke loops over layers with `i`; the trace body then reuses `i` as its own loop index.

The body's `for` binds `i` before each read, so it never reads the invoke's `i`.
"""
prompts = ["hello world", "the cat sat"]
norms = []
with model.trace() as tracer:
    with tracer.invoke("a dog ran"):
        for i, block in enumerate(model.transformer.h):
            norms.append(block.output.norm().save())
    for i in range(len(prompts)):
        with tracer.invoke(prompts[i]):
            norms.append(model.lm_head.output.norm().save())

print(len(norms))
