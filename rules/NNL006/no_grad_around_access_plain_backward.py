"""`with torch.no_grad():` around the first layer's read, then a plain backward on the logits.

No error, but the forward up to h[0] ran without autograd: the position embedding and the first
block get no gradient at all.
"""
import torch

with model.trace("the dog sat on the mat"):
    with torch.no_grad():  # expect: NNL006
        first = model.transformer.h[0].output.save()
    model.lm_head.output.sum().backward()

assert model.transformer.wpe.weight.grad is None
assert model.transformer.h[0].mlp.c_fc.weight.grad is None
assert model.transformer.h[1].mlp.c_fc.weight.grad is not None
