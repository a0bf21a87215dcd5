"""A generate trace with only sampling settings (`do_sample=`, `temperature=`, `max_new_tokens=`):
keywords the rule does not know as inputs are unknown, and here they are not inputs.
"""
with model.generate(max_new_tokens=2, do_sample=True, temperature=0.7) as tracer:
    with tracer.invoke("the cat sat"):
        first = model.lm_head.output.save()
    with tracer.invoke("a dog ran"):
        second = model.lm_head.output.save()

assert first.shape[-1] == second.shape[-1] == 12
