"""A prompt-less `tracer.invoke()` over the whole batch reads the first invoke's value after its own module.

The batch-wide invoke waits on `lm_head` first; the first invoke bound `ref` at `h[1]`, before that.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        ref = model.transformer.h[1].output[:, -1, :]
    with tracer.invoke("the cat"):
        pass
    with tracer.invoke():
        logits = model.lm_head.output
        gap = (logits[:, -1, :].norm() - ref.norm()).save()

print(float(gap))
