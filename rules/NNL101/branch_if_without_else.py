"""A saved binding, then an `if` inside the trace that may rebind `h` to an unsaved output.

When the `if` runs (here it does), the read after the trace finds `h` undefined; the saved
binding before it is not reported (it is saved), the `if`'s is.
"""
# runtime-raises: name 'h' is not defined
prompt = "hello world"
with model.trace(prompt):
    h = model.transformer.h[0].output.save()
    if prompt:
        h = model.transformer.h[1].output  # expect: NNL101

print(h.shape)
