"""Code asks the model for a cache of module outputs: `model.cache(...)`.

No nnsight release has `cache` on the model (AttributeError on 0.8.1); since 0.5 the tracer has it:
`tracer.cache(...)` inside the trace.
"""
# runtime-raises: has attribute 'cache'
with model.trace("hello world the cat") as tracer:
    cache = model.cache(modules=[model.transformer.h[0]]).save()  # expect: NNL302
