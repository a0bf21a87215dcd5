"""`.grad` on a transformer block (a module) instead of on its output tensor, inside the backward
block.

Modules have no gradient; nnsight's Envoy raises an AttributeError.
"""
# runtime-raises: 'Envoy' object (nor its module) has attribute 'grad'
with model.trace("the cat sat on the mat"):
    with model.lm_head.output.sum().backward():
        block_grad = model.transformer.h[1].grad.save()  # expect: NNL007
