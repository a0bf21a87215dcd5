"""A plain backward in the trace, then the gradients of parameters (leaves) read right after it.

Parameters are leaves, so torch fills their `.grad`: real values, not None.
"""
with model.trace("a dog ran on the mat"):
    model.lm_head.output[0, -1].max().backward()
    head_grad = model.lm_head.weight.grad.save()
    fc_bias_grad = model.transformer.h[1].mlp.c_fc.bias.grad.save()

assert head_grad is not None
assert fc_bias_grad is not None
