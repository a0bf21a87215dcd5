"""The nnsight <= 0.4 idiom: `.grad.save()` on an activation, then a plain `loss.backward()`.

From nnsight 0.5 on `.grad` outside `with loss.backward():` is plain torch: an activation is not a
leaf, so its `.grad` is never filled and the saved value is None (torch only warns).
"""
with model.trace("the cat sat on the mat"):
    hidden = model.transformer.h[0].output
    hidden_grad = hidden.grad.save()  # expect: NNL002
    model.lm_head.output.sum().backward()

assert hidden_grad is None
