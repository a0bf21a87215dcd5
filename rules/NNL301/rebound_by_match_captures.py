"""Names saved in the trace are rebound after it by `match` captures of every pattern form.

A capture binds the name to the matched object (here a `Box`, whose `.value` is its own): nothing
to report.
"""
from dataclasses import dataclass


@dataclass
class Box:
    value: int


with model.trace("hello world"):
    a = model.transformer.h[0].output.save()
    b = model.transformer.h[0].output.save()
    c = model.transformer.h[0].output.save()
    d = model.transformer.h[0].output.save()
    e = model.transformer.h[0].output.save()
    f = model.transformer.h[0].output.save()
    g = model.transformer.h[0].output.save()

match Box(1):
    case a:
        pass
match [Box(2), Box(0)]:
    case [b, *c]:
        c = c[0]
match {"k": Box(3)}:
    case {"k": d, **rest}:
        pass
match Box(4):
    case Box(value=4) as e:
        pass
match Box(5):
    case (Box(value=9) as f) | (Box() as f):
        pass
match (Box(6),):
    case (Box() as g,):
        pass

assert [x.value for x in (a, b, c, d, e, f, g)] == [1, 2, 0, 3, 4, 5, 6]
