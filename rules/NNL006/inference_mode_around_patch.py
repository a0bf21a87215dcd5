"""`torch.inference_mode()` around an in-place patch of a layer's output (to "save memory").

The forward up to the patched module runs in inference mode: the rest of the forward fails.
"""
# runtime-raises: Inference tensors cannot be saved for backward
import torch

with model.trace("hello world"):
    with torch.inference_mode():  # expect: NNL006
        model.transformer.h[0].output[:] = 0
    logits = model.lm_head.output.save()
