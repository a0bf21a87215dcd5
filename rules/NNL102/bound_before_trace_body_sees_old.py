"""`scale` is bound before the trace and rebound in an invoke; the trace body reads it after the invoke.

The body runs before the invoke body, so it silently sees the old value, not the invoke's.
"""
import torch

scale = torch.tensor(1.0)
seen = []
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        scale = model.transformer.h[0].output.abs().max().save()
    seen.append(scale)  # expect: NNL102

assert len(seen) == 1
assert seen[0].item() == 1.0
