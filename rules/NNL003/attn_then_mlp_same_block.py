"""The attention output and then the MLP output of the same block, gradients read in that order.

The MLP runs after the attention in the forward, so its gradient arrives first: asking for the
attention's gradient first makes the MLP's read fail.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
with model.trace("the cat ran"):
    attn_out = model.transformer.h[0].attn.output[0]
    mlp_out = model.transformer.h[0].mlp.output
    with model.lm_head.output.sum().backward():
        attn_grad = attn_out.grad.save()
        mlp_grad = mlp_out.grad.save()  # expect: NNL003
