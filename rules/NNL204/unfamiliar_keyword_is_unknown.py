"""`model.trace(attention_mask=...)` without invokes fails (a mask is no input), but the rule cannot
tell an unfamiliar keyword from a model's own input keyword, so it stays silent. The case pins
that scope: unfamiliar keywords are unknown, never "no input".
"""
# runtime-raises: Cannot access `model.lm_head.output` outside of interleaving
import torch

with model.trace(attention_mask=torch.ones(1, 3)):
    logits = model.lm_head.output.save()
