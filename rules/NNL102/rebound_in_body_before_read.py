"""An invoke binds `batch`; the trace body binds its own `batch` before reading it.

The body's read sees the body's own binding, made earlier in the same block.
"""
with model.trace() as tracer:
    with tracer.invoke(["hello world", "the cat"]):
        batch = model.transformer.wte.output.shape[0]
        emb = model.transformer.wte.output.save()
    batch = ["a dog ran", "on mat"]
    with tracer.invoke(batch):
        logits = model.lm_head.output.save()

print(emb.shape, logits.shape)
