"""A helper that takes the tracer runs the open loop; it is the last thing the trace body does.
"""
def record_steps(tracer, layer, store):
    for step in tracer.iter[:]:
        store.append(layer.output[0, -1])


with model.generate("the cat sat", max_new_tokens=3) as tracer:
    steps = list().save()
    record_steps(tracer, model.transformer.h[0], steps)

assert len(steps) == 3
