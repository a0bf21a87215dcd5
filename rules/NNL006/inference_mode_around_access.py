"""`with torch.inference_mode():` inside the trace around a read: no backward anywhere.

The forward up to h[0] runs in inference mode, and the rest of the forward (with gradients on)
cannot use inference tensors: the trace fails even without a backward.
"""
# runtime-raises: Inference tensors cannot be saved for backward
import torch

with model.trace("the cat ran"):
    with torch.inference_mode():  # expect: NNL006
        hidden = model.transformer.h[0].output.save()
    logits = model.lm_head.output.save()
