"""A teaching snippet shows that an unsaved value is gone after the trace, and catches the error.

The `except NameError` catches exactly what the mistake raises: a deliberate demo, not a finding.
"""
with model.trace("the cat sat"):
    hidden = model.transformer.h[0].output

try:
    print(hidden.shape)
except NameError as error:
    print("as expected:", error)
