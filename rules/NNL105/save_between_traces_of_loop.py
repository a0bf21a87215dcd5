"""A loop of traces saves the running mean between traces, outside both.

Only code inside a trace may save; between traces there is none.
"""
# runtime-raises: save() was called outside a trace
import torch

running = torch.zeros(32)
for prompt in ["hello world", "the cat sat"]:
    with model.trace(prompt):
        h = model.transformer.h[1].output[:, -1, :].save()
    running = (running + h[0]).save()  # expect: NNL105
