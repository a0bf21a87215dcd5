"""A bounded `tracer.iter[:2]` loop in a generate trace, then `model.lm_head.output` after it.

After the loop a module read means step 0 again, which the model already ran.
"""
# runtime-raises: 'model.lm_head.output.i0' was requested but the model already ran past it
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    first_two = list().save()
    for step in tracer.iter[:2]:
        first_two.append(model.lm_head.output)
    last = model.lm_head.output.save()  # expect: NNL201
