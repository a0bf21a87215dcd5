"""A generate trace without input that goes straight into a `tracer.iter` loop: the error is an
unrelated-looking AttributeError about greenlets.
"""
# runtime-raises: object has no attribute 'mediator'
with model.generate(max_new_tokens=3) as tracer:  # expect: NNL204
    per_step = list().save()
    for step in tracer.iter[:]:
        per_step.append(model.lm_head.output)
