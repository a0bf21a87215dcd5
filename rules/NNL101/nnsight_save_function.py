"""`nnsight.save(x)` as a statement, and `nnsight.save(...)` around the bound expression.

The function form marks the object just like the method.
"""
import nnsight

with model.trace("a dog ran"):
    mlp = model.transformer.h[1].mlp.output
    nnsight.save(mlp)
    final = nnsight.save(model.transformer.ln_f.output)

print(mlp.shape, final.shape)
