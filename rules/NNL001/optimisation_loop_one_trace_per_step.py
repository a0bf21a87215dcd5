"""A steering vector optimised over steps: one trace per step, one backward per trace.

Each step's trace builds its own graph, so nothing is freed twice: clean.
"""
import torch

steer = torch.zeros(32, requires_grad=True)
optimiser = torch.optim.SGD([steer], lr=0.1)
for step in range(2):
    optimiser.zero_grad()
    with model.trace("the cat sat"):
        model.transformer.h[0].output[:] += steer
        loss = model.lm_head.output[0, -1].logsumexp(-1)
        loss.backward()
    optimiser.step()
