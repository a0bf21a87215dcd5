"""Plain torch backwards with no trace around them: the same leaf `sum` twice, then a fresh loss.

Outside every trace is not NNL001's business; `sum` over a leaf saves no tensors, so this also runs
clean.
"""
import torch

weights = torch.ones(3, requires_grad=True)
loss = weights.sum()
loss.backward()
loss.backward()
(weights * 2).sum().backward()
assert weights.grad.tolist() == [4.0, 4.0, 4.0]
