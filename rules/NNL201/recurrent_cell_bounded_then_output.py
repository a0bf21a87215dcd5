"""A plain trace of a recurrent model: a bounded loop over the three calls of its inner cell, then
the head's and the model's output, which come after the cell's last call: this runs.
"""
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
    for step in tracer.iter[:3]:
        states.append(net.cell.output)
    head = net.head.output.save()
    final = net.output.save()

assert len(states) == 3
assert torch.equal(head, final)
