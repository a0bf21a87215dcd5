"""Sibling invokes at the trace level, made in a `for` loop and under an `if`: none is inside
another, so the batch is built before the model runs.
"""
prompts = ["the cat sat", "a dog ran"]
with_baseline = True

with model.trace() as tracer:
    logits = list().save()
    for prompt in prompts:
        with tracer.invoke(prompt):
            logits.append(model.lm_head.output)
    if with_baseline:
        with tracer.invoke("hello world"):
            baseline = model.lm_head.output.save()

assert len(logits) == 2
assert baseline.shape[0] == 1 and baseline.shape[-1] == 12
