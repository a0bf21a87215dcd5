"""A save in a session's body, between its traces, of a value computed from both traces.

A session is a trace context too: its body runs with it open.
"""
with model.session():
    with model.trace("hello world"):
        a = model.transformer.h[1].output[:, -1, :]
    with model.trace("the cat"):
        b = model.transformer.h[1].output[:, -1, :]
    gap = (a - b).norm().save()

print(float(gap))
