"""The open loop is the last statement of the generate block; everything else happens after the
`with`, on saved values (the usual notebook shape), and inside a session the next trace runs too.
"""
with model.session():
    with model.generate("the cat sat", max_new_tokens=3) as tracer:
        per_step = list().save()
        for step in tracer.iter[:]:
            per_step.append(model.transformer.h[1].output[0, -1])
    with model.trace("a dog ran"):
        clean = model.transformer.h[1].output.save()

stacked = [vector.norm() for vector in per_step]
assert len(stacked) == 3
assert clean.shape == (1, 3, 32)
