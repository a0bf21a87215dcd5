"""The documented shape: capture the output before `with loss.backward():`, read only `.grad` in it.
"""
with model.trace("the cat sat on the mat"):
    hidden = model.transformer.h[1].output
    loss = model.lm_head.output.sum()
    with loss.backward():
        hidden_grad = hidden.grad.save()

assert hidden_grad is not None
