"""A capture loop over the layers puts each read under `torch.no_grad()` ("we only read"); the
backward block then asks for a captured layer's gradient.
"""
# runtime-raises: cannot register a hook on a tensor that doesn't require gradient
import torch

with model.trace("the cat sat"):
    acts = []
    for layer in model.transformer.h:
        with torch.no_grad():  # expect: NNL006
            acts.append(layer.output)
    with model.lm_head.output.sum().backward():
        last_grad = acts[-1].grad.save()
