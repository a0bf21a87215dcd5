"""A `for step in tracer.all():` loop followed by pure Python that saves a count.

`tracer.all()` is an open loop too: even code that touches no module is skipped after it.
"""
# runtime-raises: name 'n_steps' is not defined
import nnsight

with model.generate("a dog ran", max_new_tokens=3) as tracer:
    hidden = list().save()
    for step in tracer.all():
        hidden.append(model.transformer.h[1].output[0, -1])
    n_steps = nnsight.save(len(hidden))  # expect: NNL201

print(n_steps)
