"""An evaluation function decorated with `@torch.no_grad()` (trace, no backward) and an attribution
function without it (trace with a backward) side by side in one script.
"""
import torch


@torch.no_grad()
def evaluate(lm, prompt):
    with lm.trace(prompt):
        logits = lm.lm_head.output.save()
    return logits


def attribute(lm, prompt):
    with lm.trace(prompt):
        hidden = lm.transformer.h[1].output
        with lm.lm_head.output.sum().backward():
            hidden_grad = hidden.grad.save()
    return hidden_grad


assert evaluate(model, "the cat sat").shape == (1, 3, 12)
assert attribute(model, "the cat sat") is not None
