"""In a `tracer.iter` loop each pass reads `h[0]` then `lm_head`; the next pass reads `h[0]` again
after the previous pass's `lm_head`, which is fine because that is the next step's `h[0]`.
"""
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    hidden, logits = list().save(), list().save()
    for step in tracer.iter[:3]:
        hidden.append(model.transformer.h[0].output)
        logits.append(model.lm_head.output)

assert len(hidden) == len(logits) == 3
