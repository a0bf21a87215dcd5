"""A lambda after the trace reads `h`, bound inside it without `.save()`, as the `key=` of `sorted`.

Called right there, the lambda looks `h` up: undefined, since only saved values leave the trace.
"""
# runtime-raises: name 'h' is not defined
with model.trace("hello world"):
    h = model.transformer.h[0].output  # expect: NNL101

order = sorted(range(2), key=lambda i: h[0, i].sum())
