"""A loop inside the trace rebinds `out` to each block's output; none is saved.

The fix goes on the last binding (the one in the loop); without it `out` is undefined after the trace.
"""
# runtime-raises: name 'out' is not defined
with model.trace("a dog ran on"):
    out = model.transformer.wte.output
    for block in model.transformer.h:
        out = block.output  # expect: NNL101

print(out.shape)
