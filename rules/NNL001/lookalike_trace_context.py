"""A non-nnsight object with `trace()`/`invoke()` context managers wraps two plain torch backwards.

Each loss is built fresh from a leaf, so the backwards share no graph and the run is clean.
"""
import contextlib

import torch


class Profiler:
    @contextlib.contextmanager
    def trace(self):
        yield self

    def invoke(self, label):
        return contextlib.nullcontext(label)


weights = torch.ones(4, requires_grad=True)
with Profiler().trace() as tracer:
    with tracer.invoke("hello world"):
        (weights * weights).sum().backward()
    with tracer.invoke("the cat sat"):
        (weights * weights).sum().backward()
assert weights.grad.tolist() == [4.0, 4.0, 4.0, 4.0]
