"""A test that shows the empty prompt failing on purpose, inside `pytest.raises`: not reported."""
import pytest

with pytest.raises(RuntimeError):
    with model.trace(""):
        logits = model.lm_head.output.save()
