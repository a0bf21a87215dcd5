"""`tracer.cache()` collects every module's output; the cache is read after the trace without `.save()`.

nnsight saves the cache object itself when it makes it, so it leaves the trace.
"""
with model.trace("the cat sat") as tracer:
    cache = tracer.cache()

print(cache.model.transformer.h[0].output.shape)
