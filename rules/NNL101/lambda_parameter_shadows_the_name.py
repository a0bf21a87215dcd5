"""After the trace, a lambda takes a parameter named like the unsaved `h` of the trace: it reads its own.

Nothing reads the trace's `h` after it (it is used inside only): nothing to report.
"""
with model.trace("hello world"):
    h = model.transformer.h[0].output
    norm = h.norm().save()

size = lambda h: h.numel()  # noqa: E731
squares = lambda: [h * h for h in range(3)]  # noqa: E731
assert size(norm) == 1 and squares() == [0, 1, 4]
