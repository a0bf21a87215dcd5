"""A test that shows the tuple error on purpose, inside `pytest.raises` for the error the rule
predicts: a demo, not a finding (by default).
"""
import pytest

with pytest.raises(TypeError, match="does not support item assignment"):
    with model.trace("the cat sat"):
        model.transformer.h[0].attn.output[0] = 0
