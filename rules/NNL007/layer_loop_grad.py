"""A comprehension over the layers reads `.grad` of each layer module (the author meant each
layer's output).
"""
# runtime-raises: 'Envoy' object (nor its module) has attribute 'grad'
import nnsight

with model.trace("hello world"):
    with model.lm_head.output.sum().backward():
        grads = nnsight.save([layer.grad for layer in reversed(model.transformer.h)])  # expect: NNL007
