"""A plain trace of a small recurrent model: an open `tracer.iter[:]` over the cell that runs three
times per forward, then `net.output` after the loop.

The loop ends by asking for a fourth call of the cell, so the read of the output never runs.
"""
# runtime-raises: name 'final' is not defined
import torch
from nnsight import NNsight


class Recurrent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = torch.nn.Linear(4, 4)
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x):
        for _ in range(3):
            x = torch.tanh(self.cell(x))
        return self.head(x)


net = NNsight(Recurrent())
with net.trace(torch.ones(1, 4)) as tracer:
    states = list().save()
    for step in tracer.iter[:]:
        states.append(net.cell.output)
    final = net.output.save()  # expect: NNL201

print(final)
