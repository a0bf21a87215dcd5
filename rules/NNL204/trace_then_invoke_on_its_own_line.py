"""The same program with the invoke opened on its own line inside the trace: it runs."""
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        logits = model.lm_head.output.save()

assert logits.shape[1] == 3
