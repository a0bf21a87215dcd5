"""A timing helper defined in this file is a context-manager class (`__enter__`/`__exit__`) whose
`trace()` returns the helper itself and whose `invoke()` labels a step; two losses built from a
leaf are backpropagated in two such steps.

The helper is not an nnsight model, so its `trace()` is not a trace: the backwards share no graph
and the run is clean.
"""
import contextlib
import time

import torch


class StepTimer:
    def __init__(self):
        self.durations = []

    def trace(self, label=None):
        self.label = label
        return self

    def invoke(self, label):
        return contextlib.nullcontext(label)

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.durations.append(time.perf_counter() - self.start)
        return False


weights = torch.ones(3, requires_grad=True)
timer = StepTimer()
with timer.trace("two penalties") as tracer:
    with tracer.invoke("l1"):
        weights.abs().sum().backward()
    with tracer.invoke("l2"):
        (weights ** 2).sum().backward()

assert weights.grad.tolist() == [3.0, 3.0, 3.0]
assert len(timer.durations) == 1
