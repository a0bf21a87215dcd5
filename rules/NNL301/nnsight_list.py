"""Per-layer outputs are collected in an `nnsight.list()` made inside the trace.

`nnsight.list` went in 0.6; a plain list saved with `nnsight.save([])` replaces it.
"""
# runtime-raises: module 'nnsight' has no attribute 'list'
import nnsight

with model.trace("a dog ran"):
    outputs = nnsight.list().save()  # expect: NNL301
    for block in model.transformer.h:
        outputs.append(block.output)

print(len(outputs))
