"""Logits saved in a trace; a standalone `with logits.sum().backward():` after the trace reads a
layer's output.

The forward that produced the logits is long over: the access fails with an OutOfOrderError.
"""
# runtime-raises: 'model.transformer.h.0.output.i0' was requested but the model already ran past it
with model.trace("the dog sat"):
    logits = model.lm_head.output.save()

with logits.sum().backward():
    hidden = model.transformer.h[0].output  # expect: NNL004
