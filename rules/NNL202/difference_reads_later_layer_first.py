"""The difference of two layers written later-minus-earlier in one expression: the left operand
(layer 1) is read first.
"""
# runtime-raises: 'model.transformer.h.0.output.i0' was requested but the model already ran past it
with model.trace("a dog ran"):
    delta = (model.transformer.h[1].output - model.transformer.h[0].output).save()  # expect: NNL202
