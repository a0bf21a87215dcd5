"""The logits' gradient is read inside `with loss.backward():`, an earlier layer's just after it.

Only reads inside the block are served by nnsight's backward; the one after it is plain torch and
gives None for the activation.
"""
with model.trace("hello world"):
    hidden = model.transformer.h[0].output
    logits = model.lm_head.output
    with logits.sum().backward():
        logits_grad = logits.grad.save()
    hidden_grad = hidden.grad.save()  # expect: NNL002

assert logits_grad is not None
assert hidden_grad is None
