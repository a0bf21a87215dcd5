"""The whole trace inside `torch.inference_mode()`, reading activations only: the forward runs
entirely in inference mode, which is consistent.
"""
import torch

with torch.inference_mode():
    with model.trace("a dog ran"):
        hidden = model.transformer.h[1].output.save()
        logits = model.lm_head.output.save()

assert hidden.is_inference()
assert logits.shape == (1, 3, 12)
