"""An attribution class whose method is decorated with `@torch.no_grad()` (copied from an
evaluation method) runs a trace with a backward on `self.model`.
"""
# runtime-raises: element 0 of tensors does not require grad and does not have a grad_fn
import torch


class Attributor:
    def __init__(self, lm):
        self.model = lm

    @torch.no_grad()
    def attribute(self, prompt):
        with self.model.trace(prompt):
            self.model.lm_head.output[0, -1].max().backward()  # expect: NNL005


Attributor(model).attribute("a cat ran")
