"""The deprecated block form `with tracer.all():`, then a module read after it.

The read after the open block never returns (no warning), so `final` stays unbound.
"""
# runtime-raises: name 'final' is not defined
with model.generate("a dog ran", max_new_tokens=3) as tracer:
    steps = list().save()
    with tracer.all():
        steps.append(model.transformer.h[0].output)
    final = model.lm_head.output.save()  # expect: NNL201

print(len(steps), final)
