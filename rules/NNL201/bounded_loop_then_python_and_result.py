"""After a bounded `tracer.iter[:2]` loop, pure Python, `tracer.result` and `model.generator.output`
still run: a bounded loop ends on its own, and those values belong to the end of the run
(the generator's output comes before the result, so it is read first).
"""
import nnsight

with model.generate("the cat sat", max_new_tokens=3) as tracer:
    first_two = list().save()
    for step in tracer.iter[:2]:
        first_two.append(model.lm_head.output)
    n_steps = nnsight.save(len(first_two))
    generated = model.generator.output.save()
    tokens = tracer.result.save()

assert n_steps == 2
assert tokens.shape == generated.shape == (1, 6)
