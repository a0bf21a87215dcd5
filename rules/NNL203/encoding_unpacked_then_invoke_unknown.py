"""`model.trace(**encoding)` with a tokenizer encoding: that IS an input, so the invoke inside fails,
but `**` is unknown to the rule (the same shape with `{}` is fine), so the rule stays silent.
The case pins that scope: unknown never counts as "has an input".
"""
# runtime-raises: Cannot invoke while the model is already running.
encoding = model.tokenizer("the cat sat", return_tensors="pt")
with model.trace(**encoding) as tracer:
    with tracer.invoke("a dog ran"):
        other = model.transformer.h[0].output.save()
