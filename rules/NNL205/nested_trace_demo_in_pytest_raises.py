"""A test that shows the nested-trace error on purpose, inside `pytest.raises` for the error the
rule predicts: a demo, not a finding (by default).
"""
import pytest

with pytest.raises(ValueError, match="cyclic parent chain"):
    with model.trace("the cat sat"):
        outer = model.transformer.h[0].output.save()
        with model.trace("a dog ran"):
            inner = model.transformer.h[0].output.save()
