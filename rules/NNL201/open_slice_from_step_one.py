"""`tracer.iter[1:]` has a start but no end: it is as open as `tracer.iter[:]`.

The statement after it never runs.
"""
# runtime-raises: name 'count' is not defined
import nnsight

with model.generate("hello world", max_new_tokens=3) as tracer:
    later = list().save()
    for step in tracer.iter[1:]:
        later.append(model.lm_head.output)
    count = nnsight.save(len(later))  # expect: NNL201

print(later, count)
