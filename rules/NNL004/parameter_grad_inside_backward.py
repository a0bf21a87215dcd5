"""Inside the backward block, besides an activation's `.grad`, a parameter's `.grad` is read.

`.weight` is a parameter, not a forward access: nothing waits for the forward.
"""
with model.trace("hello world"):
    hidden = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()
        fc_weight_grad = model.transformer.h[0].mlp.c_fc.weight.grad

assert hidden_grad is not None
