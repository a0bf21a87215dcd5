"""A block's `.output` is read, then its own `.input`: the input was handed over before the
block produced its output.
"""
# runtime-raises: 'model.transformer.h.0.input.i0' was requested but the model already ran past it
with model.trace("a dog ran"):
    after = model.transformer.h[0].output.save()
    before = model.transformer.h[0].input.save()  # expect: NNL202
