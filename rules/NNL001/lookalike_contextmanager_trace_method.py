"""A small probe class defined in this file has a `trace()` method that is a plain
`contextlib.contextmanager` (it times a step); inside it, two losses are built from the probe's
own weight and each is backpropagated.

The probe is not an nnsight model, so its `trace()` is not a trace: each loss is built fresh from
a leaf parameter, the backwards share no graph, and the run is clean.
"""
import contextlib
import time

import torch


class LinearProbe:
    def __init__(self):
        self.head = torch.nn.Linear(3, 2)
        self.durations = []

    @contextlib.contextmanager
    def trace(self, label=None):
        start = time.perf_counter()
        yield self
        self.durations.append(time.perf_counter() - start)


probe = LinearProbe()
with probe.trace("two penalties"):
    probe.head.weight.abs().sum().backward()
    (probe.head.weight ** 2).sum().backward()

assert probe.head.weight.grad is not None
assert len(probe.durations) == 1
