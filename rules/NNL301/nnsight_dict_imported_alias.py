"""`import nnsight as ns`, then `ns.dict()` collects named activations.

The alias is the same module: `ns.dict` is gone since 0.6 like `nnsight.dict`.
"""
# runtime-raises: module 'nnsight' has no attribute 'dict'
import nnsight as ns

with model.trace("the cat sat on"):
    named = ns.dict().save()  # expect: NNL301
    named["final"] = model.transformer.ln_f.output
