"""A bounded loop over the first steps, then a second `tracer.iter[2]` loop for the last step:
each loop pins the step it asks for, so the second read is not "step 0 again".
"""
with model.generate("a dog ran", max_new_tokens=3) as tracer:
    early = list().save()
    for step in tracer.iter[0:2]:
        early.append(model.lm_head.output)
    for step in tracer.iter[2]:
        last = model.lm_head.output.save()

assert len(early) == 2
assert last.shape[-1] == 12
