"""The nnsight 0.5+ way: capture the activation, read and replace its gradient inside
`with loss.backward():`.
"""
with model.trace("hello world"):
    hidden = model.transformer.h[1].output
    loss = model.lm_head.output.sum()
    with loss.backward():
        original = hidden.grad.clone().save()
        hidden.grad = hidden.grad * 2
        doubled = hidden.grad.save()

assert original is not None
assert (doubled - 2 * original).abs().max() == 0
