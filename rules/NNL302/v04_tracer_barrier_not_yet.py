"""Code written for nnsight 0.5+ syncs two invokes with `tracer.barrier(2)` in a project pinned to
nnsight 0.4: 0.4.11's tracer has no `barrier` (AttributeError)."""
# target-version: 0.4
# runtime-raises: has no attribute 'barrier'
with model.trace() as tracer:
    barrier = tracer.barrier(2)  # expect: NNL302
    with tracer.invoke("hello world"):
        first = model.transformer.h[0].mlp.output.save()
