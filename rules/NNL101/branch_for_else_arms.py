"""A loop inside the trace binds `h` before a `break`; its `else:` binds `h` when no `break` ran.

A `break` skips the `else:`, so the read after the trace may see either binding: here the loop's
(layer 0 breaks), and each needs `.save()`.
"""
# runtime-raises: name 'h' is not defined
with model.trace("hello world"):
    for index, block in enumerate(model.transformer.h):
        if index == 0:
            h = block.output  # expect: NNL101
            break
    else:
        h = model.transformer.ln_f.output  # expect: NNL101

print(h.shape)
