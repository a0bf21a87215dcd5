"""The 0.5+ replacement for `nnsight.list()`: a plain list saved with `nnsight.save([])` inside the trace.

`nnsight.save` exists since 0.5.x and works on any object.
"""
import nnsight

with model.trace("the cat sat on"):
    outputs = nnsight.save([])
    for block in model.transformer.h:
        outputs.append(block.output[:, -1, :])

print(len(outputs))
