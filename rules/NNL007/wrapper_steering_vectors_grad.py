"""A wrapper object keeps one trainable steering vector per layer on `model.steering_vectors`
(leaf tensors, not modules). After a plain backward, `model.steering_vectors[1].grad` is a real
gradient.
"""
import torch


class SteeredLM:
    def __init__(self, lm):
        self._lm = lm
        self.steering_vectors = [torch.zeros(32, requires_grad=True) for _ in lm.transformer.h]

    def trace(self, *args, **kwargs):
        return self._lm.trace(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._lm, name)


model = SteeredLM(model)
with model.trace("a cat ran"):
    for index, layer in enumerate(model.transformer.h):
        layer.output[:] = layer.output + model.steering_vectors[index]
    model.lm_head.output[0, -1].max().backward()
    second_vector_grad = model.steering_vectors[1].grad.save()

assert second_vector_grad is not None
assert second_vector_grad.shape == (32,)
