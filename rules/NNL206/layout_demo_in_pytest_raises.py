"""A test that shows the one-line-body error on purpose, inside `pytest.raises` for the error the
rule predicts: a demo, not a finding (by default).
"""
import pytest

with pytest.raises(ValueError, match="must start on its own line"):
    with model.trace("the cat sat"): logits = model.lm_head.output.save()
