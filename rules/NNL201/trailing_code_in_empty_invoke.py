"""The open loop sits in its own invoke, and what follows it goes into a separate empty
`with tracer.invoke():` — nnsight's own advice, and it runs.
"""
with model.generate(max_new_tokens=3) as tracer:
    with tracer.invoke("the cat sat"):
        logits = list().save()
        for step in tracer.iter[:]:
            logits.append(model.lm_head.output)
    with tracer.invoke():
        tokens = tracer.result.save()

assert len(logits) == 3
assert tokens.shape == (1, 6)
