"""The logits' gradient is read first, then an earlier layer's, in the logits' backward block.
"""
with model.trace("the dog sat"):
    hidden = model.transformer.h[0].output
    logits = model.lm_head.output
    with logits.sum().backward():
        logits_grad = logits.grad.save()
        hidden_grad = hidden.grad.save()

assert logits_grad is not None and hidden_grad is not None
