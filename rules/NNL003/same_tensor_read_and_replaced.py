"""One activation's gradient read, replaced, then read again inside one backward block.

Repeated reads of the same tensor's `.grad` are not out of order.
"""
with model.trace("hello world"):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():
        before = hidden.grad.clone().save()
        hidden.grad = hidden.grad * 2
        after = hidden.grad.save()

assert (after - 2 * before).abs().max() == 0
