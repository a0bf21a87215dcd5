"""`with loss.backward():` on plain tensors outside any trace, reading a leaf's gradient inside.

No trace and no activation: nnsight's standalone backward serves the leaf's gradient.
"""
import torch

weights = torch.tensor([2.0, 3.0], requires_grad=True)
loss = (weights * weights).sum()
with loss.backward():
    weights_grad = weights.grad.save()

assert weights_grad.tolist() == [4.0, 6.0]
