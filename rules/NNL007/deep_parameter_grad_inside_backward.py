"""Inside the backward block, the gradient of an attention projection's weight, deep in the module
tree: the chain ends in `.weight`, a tensor.
"""
with model.trace("the cat ran"):
    hidden = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        hidden_grad = hidden.grad.save()
        qkv_weight_grad = model.transformer.h[0].attn.c_attn.weight.grad

assert hidden_grad is not None
