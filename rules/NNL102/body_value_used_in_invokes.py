"""The trace body makes a steering vector before the invokes; each invoke adds it to a block.

The body binds it first, so every invoke body finds it.
"""
import torch

with model.trace() as tracer:
    steer = torch.ones(32) * 0.1
    with tracer.invoke("hello world"):
        model.transformer.h[0].output[:, -1, :] += steer
        a = model.lm_head.output.save()
    with tracer.invoke("the cat"):
        model.transformer.h[1].output[:, -1, :] += steer
        b = model.lm_head.output.save()

print(a.shape, b.shape)
