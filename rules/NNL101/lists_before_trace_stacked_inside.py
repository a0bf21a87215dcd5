"""A logit lens in a library function: per-layer lists made before the trace, filled inside it, and
stacked into one saved tensor before the trace ends.

Only the stacked tensor is read after the trace, and it is saved.
"""
import torch


def logit_lens(lm, prompt):
    probs_per_layer = []
    with lm.trace(prompt):
        for block in lm.transformer.h:
            last = block.output[:, -1:, :]
            probs_per_layer.append(lm.lm_head(lm.transformer.ln_f(last))[:, 0].softmax(-1))
        probs = torch.stack(probs_per_layer, dim=1).save()
    return probs


assert logit_lens(model, "a dog ran").shape == (1, 2, 12)
