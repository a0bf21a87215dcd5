"""The body and the handler of a `try` inside the trace each bind `h`; neither is saved.

Either can be the binding the read after the trace sees (here the body's: nothing raises), so each
needs `.save()`.
"""
# runtime-raises: name 'h' is not defined
layers = [0, 1]
with model.trace("hello world"):
    first = layers[0]
    try:
        h = model.transformer.h[first].output  # expect: NNL101
    except IndexError:
        h = model.transformer.h[1].output  # expect: NNL101

print(h.shape)
