"""A steering vector made before the trace is used first thing in both invokes.

It is not an earlier invoke's name: every invoke body starts with it bound.
"""
import torch

steer = torch.full((32,), 0.05)
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.transformer.h[0].output[:, -1, :] += steer
        a = model.lm_head.output.save()
    with tracer.invoke("the cat"):
        model.transformer.h[1].output[:, -1, :] += steer
        b = model.lm_head.output.save()

print(a.shape, b.shape)
