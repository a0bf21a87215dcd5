"""Names saved in the trace are rebound after it by a `def`, a decorated `def` and a `class`.

`.value` then reads the function's, the cache wrapper's and the class's own attribute, not a saved
tensor's: dropping it would print `<function h>`. Nothing to report.
"""
import functools

with model.trace("hello world"):
    h = model.transformer.h[0].output.save()
    cached = model.transformer.h[1].output.save()
    Config = model.lm_head.output.save()


def h():
    return 1


h.value = 3


@functools.lru_cache(maxsize=None)
def cached():
    return 2


cached.value = 4


class Config:
    value = 5


assert (h.value, cached.value, Config.value) == (3, 4, 5)
