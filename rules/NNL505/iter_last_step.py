"""`tracer.iter[2]` with 3 new tokens is the last step: it runs."""
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    with tracer.iter[2]:
        logits = model.lm_head.output.save()

assert logits.shape[-1] == 12
