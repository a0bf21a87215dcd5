"""Steering every generated step in an open loop, then reading the generated ids from
`model.generator.output` after the loop (a common steering-script shape).

The read after the open loop never runs, so `steered` is never bound.
"""
# runtime-raises: name 'steered' is not defined
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    for _ in tracer.iter[:]:
        model.transformer.h[1].output[:] += 1.0
    steered = model.generator.output.save()  # expect: NNL201

print(steered)
