"""A test that shows the out-of-order error on purpose: `pytest.raises` catches exactly what the
rule predicts, so it is a demo, not a finding (by default).
"""
import pytest
from nnsight.intervention.interleaver import OutOfOrderError

with pytest.raises(OutOfOrderError, match="already ran past it"):
    with model.trace("hello world"):
        late = model.transformer.h[1].output.save()
        early = model.transformer.h[0].output.save()
