"""`torch.enable_grad()` inside the generate body, around the backward.

The body's grad mode does not reach the forward HuggingFace runs under `torch.no_grad()`: the
logits still have no graph.
"""
# runtime-raises: element 0 of tensors does not require grad and does not have a grad_fn
import torch

with model.generate("the cat sat", max_new_tokens=2):
    with torch.enable_grad():
        hidden = model.transformer.h[0].output
        model.lm_head.output.sum().backward()  # expect: NNL005
