"""On nnsight 0.4, unpacking a module's output inside the trace fails.

The output is one graph proxy: Python asks it for items to unpack, and 0.4's iteration support
only knows `for` loops and comprehensions (checked on 0.4.11).
"""
# target-version: 0.4
# runtime-raises: has no attribute 'end_lineno'
with model.trace("hello world"):
    hidden, present = model.transformer.h[0].output  # expect: NNL507
    saved = hidden.save()
