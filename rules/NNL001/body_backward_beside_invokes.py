"""The trace body outside its invokes backpropagates a plain torch penalty; one invoke
backpropagates the logits.

With explicit invokes the trace body runs BEFORE the forward and cannot read module outputs, so its
backward never touches the model's graph: clean.
"""
import torch

scale = torch.ones(1, requires_grad=True)
with model.trace() as tracer:
    (scale * scale).sum().backward()
    with tracer.invoke("the cat sat on the mat"):
        model.lm_head.output.sum().backward()
