"""A gradient read in a trace that never runs a backward at all.

`.grad` outside a backward block is plain torch: the activation's `.grad` is None.
"""
with model.trace("a cat ran"):
    embedded = model.transformer.wte.output
    embedded_grad = embedded.grad.save()  # expect: NNL002

assert embedded_grad is None
