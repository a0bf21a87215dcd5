"""A test that shows the nested-invoke error on purpose, inside `pytest.raises` for the error the
rule predicts: a demo, not a finding (by default).
"""
import pytest

with pytest.raises(ValueError, match="Cannot invoke while the model is already running"):
    with model.trace("the cat sat") as tracer:
        with tracer.invoke("a dog ran"):
            other = model.transformer.h[0].output.save()
