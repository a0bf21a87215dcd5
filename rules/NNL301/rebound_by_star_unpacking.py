"""Names saved in the trace (one of them a list of saved values) are rebound after it by star-unpacking.

`first, *rest = ...` and `*head, last = ...` bind new objects; their `.value` is the `Box`'s own.
"""


class Box:
    value = 5


with model.trace("hello world"):
    rest = [model.transformer.h[0].output.save()]
    last = model.transformer.h[1].output.save()

first, *rest = [1, Box()]
*head, last = [2, Box()]
assert rest[0].value == 5 and last.value == 5
