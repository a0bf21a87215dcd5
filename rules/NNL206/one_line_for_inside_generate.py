"""A one-line `for step in tracer.iter[:2]:` loop: the `for` form is not a traced `with`.
"""
with model.generate("the cat sat", max_new_tokens=2) as tracer:
    steps = list().save()
    for step in tracer.iter[:2]: steps.append(model.lm_head.output)

assert len(steps) == 2
