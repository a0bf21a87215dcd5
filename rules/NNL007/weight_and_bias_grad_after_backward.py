"""After a plain backward, `.grad` of the `lm_head` weight and of a block's MLP bias: parameters,
reached through a `.weight` / `.bias` step, have gradients.
"""
with model.trace("a dog ran"):
    model.lm_head.output.sum().backward()
    head_weight_grad = model.lm_head.weight.grad.save()
    proj_bias_grad = model.transformer.h[0].mlp.c_proj.bias.grad.save()

assert head_weight_grad is not None and proj_bias_grad is not None
