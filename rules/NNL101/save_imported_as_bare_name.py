"""`from nnsight import save`, then `cache = save(cache)` inside the trace.

The bare `save` is nnsight's function under an imported name, so `cache` leaves the trace.
"""
from nnsight import save

with model.trace("hello world"):
    cache = {i: block.output[:, -1, :] for i, block in enumerate(model.transformer.h)}
    cache = save(cache)

print(sorted(cache))
