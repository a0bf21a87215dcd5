"""A test pins down that `.save()` outside a trace is refused, with `pytest.raises`.

The error is the point of the test: a deliberate demo, not a finding.
"""
import pytest
import torch

with pytest.raises(ValueError, match="outside a trace"):
    torch.ones(2).save()
