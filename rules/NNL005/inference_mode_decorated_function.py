"""A function decorated with `@torch.inference_mode()` runs a trace with a backward block.
"""
# runtime-raises: This tensor does not require grad, so a backward session cannot produce gradients
import torch


@torch.inference_mode()
def saliency(lm, prompt):
    with lm.trace(prompt):
        embedded = lm.transformer.wte.output
        with lm.lm_head.output.sum().backward():  # expect: NNL005
            embedded_grad = embedded.grad.save()
    return embedded_grad


saliency(model, "hello world")
