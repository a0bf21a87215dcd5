"""The 0.4 documentation shape: `.grad.save()` straight on a module output chain, then a plain
backward on the logits.

The chain's `.grad` is read outside any backward block: plain torch, None for an activation.
"""
with model.trace("the dog sat on a mat"):
    states = model.transformer.h[1].output.save()
    states_grad = model.transformer.h[1].output.grad.save()  # expect: NNL002
    model.lm_head.output.sum().backward()

assert states is not None
assert states_grad is None
