"""A helper backpropagates a penalty it was given in the trace body, beside an invoke's backward.

With explicit invokes the body runs before the forward, so the penalty's graph is its own, not
the model's: nothing is shared and nothing fails.
"""
import torch


def attribute(lm, penalty):
    with lm.trace() as tracer:
        penalty.backward()
        with tracer.invoke("hello world"):
            lm.lm_head.output.sum().backward()


weight = torch.ones(3, requires_grad=True)
attribute(model, (weight * weight).sum())
