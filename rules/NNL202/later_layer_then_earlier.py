"""Within one trace, layer 1's output is read before layer 0's.

Layer 0 runs before layer 1, so by the time its output is asked for the model is past it.
"""
# runtime-raises: 'model.transformer.h.0.output.i0' was requested but the model already ran past it
with model.trace("the cat sat"):
    late = model.transformer.h[1].output.save()
    early = model.transformer.h[0].output.save()  # expect: NNL202
