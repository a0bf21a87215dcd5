"""The trace's loop variable `block_out` is not saved; after the trace a new loop rebinds it first.

The `for` after the trace binds `block_out` before every read, so nothing reads the trace's value.
"""
saved = []
with model.trace("hello world"):
    for block in model.transformer.h:
        block_out = block.output
        saved.append(block_out.norm().save())

for block_out in saved:
    print(float(block_out))
