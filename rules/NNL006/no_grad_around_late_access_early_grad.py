"""`with torch.no_grad():` inside the trace around the second layer's access; the backward block
then reads the first layer's gradient.

The interventions run on the model's thread, so the grad mode leaks into the forward up to h[1]:
the graph is cut there, the first layer's gradient never arrives, and nnsight raises an
OutOfOrderError naming a tensor id.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
import torch

with model.trace("the cat sat on the mat"):
    first = model.transformer.h[0].output
    with torch.no_grad():  # expect: NNL006
        second = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        first_grad = first.grad.save()
