"""Put the project root on sys.path, so a bare `pytest` can import `tests.tiny_model`; the
shared tiny model as a fixture."""
import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


@pytest.fixture
def model():
    """The shared tiny model (built once per process), with parameter gradients cleared before and
    after each use, so no case sees another's."""
    from tests.tiny_model import tiny_model

    lm = tiny_model()
    lm.zero_grad(set_to_none=True)
    yield lm
    lm.zero_grad(set_to_none=True)
