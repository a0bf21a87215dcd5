"""The nnsight 0.5+ cache: `tracer.cache(...)` inside the trace, saved, read after it."""
with model.trace("hello world the cat") as tracer:
    cache = tracer.cache(modules=[model.transformer.h[0].mlp]).save()

assert list(cache.keys()) == ["model.transformer.h.0.mlp"]
