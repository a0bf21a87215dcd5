"""nnsight 0.5+ code reads the wrapped torch model as `model._module`; its own `_model` attributes
(a torch module's, or a class of the user's) are not nnsight's."""
import torch

weight = model._module.lm_head.weight


class Probe(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._model = torch.nn.Linear(2, 2)


assert Probe()._model.weight.shape == (2, 2) and weight.shape == (12, 32)
