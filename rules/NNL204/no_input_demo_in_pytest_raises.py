"""A test that shows the missing-input error on purpose, inside `pytest.raises` for the error the
rule predicts: a demo, not a finding (by default).
"""
import pytest

with pytest.raises(ValueError, match="outside of interleaving"):
    with model.trace():
        logits = model.lm_head.output.save()
