"""A helper saves the value it is given; it is called only inside traces.

Its `.save()` runs while the trace is running, where it belongs.
"""


def keep_last(hidden):
    return hidden[:, -1, :].save()


with model.trace("a dog ran"):
    first = keep_last(model.transformer.h[0].output)
    second = keep_last(model.transformer.h[1].output)

print(first.shape, second.shape)
