"""A module class defined in this file calls `encoder` then `decoder`; the trace walks the list
`[decoder, encoder]`, so the second iteration asks for a module the forward already passed.
"""
# runtime-raises: 'model.encoder.output.i0' was requested but the model already ran past it
import torch
from nnsight import NNsight


class AutoEncoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Linear(8, 2)
        self.decoder = torch.nn.Linear(2, 8)

    def forward(self, x):
        return self.decoder(self.encoder(x))


net = NNsight(AutoEncoder())
with net.trace(torch.ones(1, 8)):
    codes = list().save()
    for part in [net.decoder, net.encoder]:
        codes.append(part.output)  # expect: NNL202
