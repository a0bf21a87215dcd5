"""A dict saved inside the trace is filled by two invokes with unsaved logits.

The saved dict leaves the trace with everything put in it; its items need no save of their own.
"""
with model.trace() as tracer:
    res = dict().save()
    with tracer.invoke("the cat sat"):
        res["clean"] = model.lm_head.output[:, -1, :]
    with tracer.invoke("a dog ran"):
        res["corrupt"] = model.lm_head.output[:, -1, :]

print((res["clean"] - res["corrupt"]).norm())
