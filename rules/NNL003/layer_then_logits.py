"""A layer's gradient, then the logits' gradient, both read in the logits' own backward block.

The logits' gradient is the very first to arrive; asking for it after a layer's is too late.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
with model.trace("the dog sat"):
    hidden = model.transformer.h[0].output
    logits = model.lm_head.output
    with logits.sum().backward():
        hidden_grad = hidden.grad.save()
        logits_grad = logits.grad.save()  # expect: NNL003
