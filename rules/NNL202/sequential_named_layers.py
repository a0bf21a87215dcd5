"""An `nn.Sequential(OrderedDict(...))` defined in this file runs `layer1` then `layer2`; the
trace reads them the other way round, also when walking a list `[layer2, layer1]`.
"""
# runtime-raises: 'model.layer1.output.i0' was requested but the model already ran past it
from collections import OrderedDict

import torch
from nnsight import NNsight

net = NNsight(
    torch.nn.Sequential(
        OrderedDict(layer1=torch.nn.Linear(4, 4), act=torch.nn.ReLU(), layer2=torch.nn.Linear(4, 2))
    )
)
with net.trace(torch.ones(1, 4)):
    second = net.layer2.output.save()
    first = net.layer1.output.save()  # expect: NNL202
