"""A generation whose length comes from `max_length=`: steps are not counted, nothing is reported."""
with model.generate("the cat sat", max_length=6) as tracer:
    with tracer.iter[1]:
        logits = model.lm_head.output.save()

assert logits.shape[-1] == 12
