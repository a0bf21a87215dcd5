"""A plain `NNsight` wrapper around a module whose forward takes `features=`: an unfamiliar keyword
is unknown to the rule, and for this model any keyword is data.
"""
import torch
from nnsight import NNsight


class Probe(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 2)

    def forward(self, features):
        return self.linear(features)


probe = NNsight(Probe())
with probe.trace(features=torch.ones(1, 4)):
    scores = probe.linear.output.save()

assert scores.shape == (1, 2)
