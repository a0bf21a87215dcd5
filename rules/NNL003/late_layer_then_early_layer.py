"""The documented order: inside one backward block the last layer's gradient is read first, then
the first layer's.
"""
with model.trace("the cat sat on the mat"):
    early = model.transformer.h[0].output
    late = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        late_grad = late.grad.clone().save()
        early_grad = early.grad.clone().save()

assert late_grad.shape == early_grad.shape
