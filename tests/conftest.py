"""Put the project root on sys.path, so a bare `pytest` can import `tests.tiny_model`."""
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
