"""Patching layer 0 with layer 1's output: Python evaluates the right-hand side first, so layer
1 is read before the assignment target's layer 0.
"""
# runtime-raises: 'model.transformer.h.0.output.i0' was requested but the model already ran past it
with model.trace("the cat sat"):
    model.transformer.h[0].output[:] = model.transformer.h[1].output  # expect: NNL202
