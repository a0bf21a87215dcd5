"""Code that branches on `nnsight.__version__` uses each release's API in its own arm."""
import nnsight

if nnsight.__version__.startswith(("0.2", "0.3", "0.4")):
    from nnsight.intervention import InterventionProxy as Value
else:
    import torch

    Value = torch.Tensor

assert Value.__name__ == "Tensor"
