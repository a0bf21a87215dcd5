"""An open `tracer.iter[:]` loop that leaves by `break` at a chosen step: the loop ends inside the
run, so the pure Python and `tracer.result` after it still run.
"""
import nnsight

with model.generate("hello world", max_new_tokens=3) as tracer:
    seen = list().save()
    for step in tracer.iter[:]:
        seen.append(model.lm_head.output)
        if step == 1:
            break
    n_seen = nnsight.save(len(seen))
    tokens = tracer.result.save()

assert n_seen == 2
assert tokens.shape == (1, 5)
