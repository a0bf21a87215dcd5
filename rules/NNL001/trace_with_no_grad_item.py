"""`with model.trace(prompt) as tracer, torch.no_grad():` still runs the forward WITH gradient
tracking.

nnsight runs the body when the trace exits, after `no_grad` has already exited, so this is an
ordinary trace: the first backward frees the graph and the second fails.
"""
import torch

with model.trace("the cat sat on the mat") as tracer, torch.no_grad():
    logits = model.lm_head.output
    logits.sum().backward()  # expect: NNL001
    logits.mean().backward()
