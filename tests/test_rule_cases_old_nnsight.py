"""Rule cases written for an old nnsight (`# target-version: 0.3` / `0.4`) tell the truth on that
nnsight: each runs in its era's venv (`.venv-nnsight-0.3`, `.venv-nnsight-0.4`, made by
`.ci/old-nnsight-venvs.sh`; skipped when missing, failed under CI), with the same meaning of the
headers as `test_rule_family_cases_runtime.py`: a `# runtime-raises: <text>` case fails with an error
whose type or text contains <text>, any other case runs clean (its own `assert`s state a wrong value).
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.test_migration_runtime import _old_python
from tests.test_rule_family_cases_runtime import CASES, headers

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "old_case_runner.py"
OLD = {"0.3", "0.4"}
BY_VERSION = {}
for _case in CASES:
    _found = headers(_case.read_text(encoding="utf-8"))
    if _found.get("target-version") in OLD and "runtime" not in _found:
        BY_VERSION.setdefault(_found["target-version"], []).append(_case)
OLD_CASES = [(minor, case) for minor in sorted(BY_VERSION) for case in BY_VERSION[minor]]


@pytest.fixture(scope="module")
def weights(tmp_path_factory) -> Path:
    from tests.test_migration_runtime import _weights

    path = tmp_path_factory.mktemp("old-cases") / "tiny_gpt2.pt"
    _weights(path)
    return path


@pytest.fixture(scope="module")
def outcomes(weights):
    """{(minor, case path): how it ended}, one process per venv for all its cases (on first use)."""
    found = {}

    def of(minor: str, case: Path) -> dict:
        if (minor, str(case)) not in found:
            python = _old_python(minor)
            out = weights.parent / f"outcomes-{minor}.jsonl"
            run = subprocess.run([str(python), str(RUNNER), str(weights), str(out), *map(str, BY_VERSION[minor])],
                                 capture_output=True, text=True, timeout=1800, cwd=str(ROOT))
            assert run.returncode == 0, run.stderr[-3000:]
            for line in out.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                found[(minor, record["path"])] = record
        return found[(minor, str(case))]

    return of


@pytest.mark.parametrize("minor,path", OLD_CASES, ids=[f"{m}-{p.parent.name}/{p.stem}" for m, p in OLD_CASES])
def test_old_case_runs_as_stated_on_its_nnsight(minor, path, outcomes) -> None:
    outcome = outcomes(minor, path)
    expected = headers(path.read_text(encoding="utf-8")).get("runtime-raises")
    if expected is None:
        assert outcome["error"] is None, f"{outcome['error']}: {outcome['text']}"
    else:
        assert outcome["error"] is not None, "ran clean"
        assert expected in f"{outcome['error']}: {outcome['text']}", f"{outcome['error']}: {outcome['text']}"


def test_old_cases_exist_for_both_old_releases() -> None:
    assert set(BY_VERSION) == OLD
