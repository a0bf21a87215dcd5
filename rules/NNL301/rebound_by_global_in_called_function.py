"""A name saved in the trace is rebound after it by a function that declares it `global`.

After `reset()`, `h` is a `Box` whose `.value` is its own: nothing to report.
"""


class Box:
    value = 5


with model.trace("hello world"):
    h = model.transformer.h[0].output.save()


def reset():
    global h
    h = Box()


reset()
assert h.value == 5
