"""A value is saved in either arm of a conditional expression: `A.output[0].save() if cond else
A.output.save()` (code written for blocks that return a tuple or a tensor).

Either arm saves, so the name leaves the trace whichever arm runs.
"""
returns_tuple = False
with model.trace("hello world"):
    block = model.transformer.h[0]
    out = (block.output[0].save() if returns_tuple else block.output.save())

assert out.dim() == 3
print(out.shape)
