"""The body and the `except Exception:` handler of a `try` inside the trace each bind `h`; neither is saved.

The NameError is raised at the read after the trace, outside the `try`: the `try` shows nothing on
purpose, and both bindings need `.save()` (here the body's is the one the read sees).
"""
# runtime-raises: name 'h' is not defined
with model.trace("hello world"):
    first = 0
    try:
        h = model.transformer.h[first].output  # expect: NNL101
    except Exception:
        h = model.transformer.h[1].output  # expect: NNL101

print(h.shape)
