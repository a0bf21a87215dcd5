"""`.grad` on a block's MLP module inside the backward block.
"""
# runtime-raises: 'Envoy' object (nor its module) has attribute 'grad'
with model.trace("a dog ran"):
    with model.lm_head.output[0, -1].max().backward():
        mlp_grad = model.transformer.h[0].mlp.grad.save()  # expect: NNL007
