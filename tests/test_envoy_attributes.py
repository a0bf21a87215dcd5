"""The bundled Envoy attribute table (what NNL401 accepts on any module path besides submodules)
equals a fresh generation from the installed nnsight, torch and transformers."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from nnsight_lint.knowledge.envoy import attribute_names

ROOT = Path(__file__).resolve().parent.parent


def test_the_table_is_what_the_installed_packages_say():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_envoy_attributes.py"), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, "stale: run scripts/gen_envoy_attributes.py"


def test_the_loader_reads_the_api_names():
    table = json.loads((ROOT / "nnsight_lint" / "knowledge" / "models" / "envoy_attributes.json").read_text())
    names = attribute_names()
    assert {"output", "input", "inputs", "source", "skip", "trace", "tokenizer"} <= set(table["envoy"]) <= names
    assert {"parameters", "named_modules", "to", "eval"} <= names
    assert "transformer" not in names and "h" not in names  # submodules are the schema's business
