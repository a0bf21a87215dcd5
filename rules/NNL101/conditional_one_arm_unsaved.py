"""Only one arm of a conditional expression saves: when the other runs, the name is not saved and
is undefined after the trace.
"""
# runtime-raises: name 'out' is not defined
returns_tuple = False
with model.trace("hello world"):
    block = model.transformer.h[0]
    out = block.output[0].save() if returns_tuple else block.output  # expect: NNL101

print(out.shape)
