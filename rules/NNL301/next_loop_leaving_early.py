"""A 0.4 generation loop that leaves early (`break` at a step the code picks): no mechanical
`tracer.iter` form, so the finding says what to write by hand.

nnsight 0.8 has no `.next()` (AttributeError).
"""
# runtime-raises: has attribute 'next'
with model.generate("hello world", max_new_tokens=3) as tracer:
    logits = model.lm_head.output.save()
    for i in range(3):
        if i == 1:
            break
        model.next()  # expect: NNL301
