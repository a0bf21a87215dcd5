"""`.grad` on the whole `transformer` sub-model inside the backward block.
"""
# runtime-raises: 'Envoy' object (nor its module) has attribute 'grad'
with model.trace("the dog ran"):
    with model.lm_head.output.sum().backward():
        body_grad = model.transformer.grad  # expect: NNL007
