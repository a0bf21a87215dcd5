"""NNL206's fix is right at run time: every `rules/NNL206` case whose traced body sits on the `with`
line fails unfixed (the case says so), and fixed by the real CLI it is left without NNL206 findings
and runs clean under real nnsight 0.8 with the tiny model.

One CLI process for all the cases (copies in a temporary directory), one model.
"""
from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

from nnsight_lint.engine.lint import LintOptions, lint_source
from tests.case_runner import run_case
from tests.support import run_cli
from tests.tiny_model import tiny_model

ROOT = Path(__file__).resolve().parent.parent
FIXABLE = sorted(
    path
    for path in (ROOT / "rules" / "NNL206").glob("*.py")
    if any(d.fix is not None for d in lint_source(path.read_text(encoding="utf-8"), str(path), LintOptions(select=("NNL206",))))
)


@pytest.fixture(scope="module")
def fixed(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("nnl206")
    for path in FIXABLE:
        shutil.copy(path, directory / path.name)
    result = run_cli("check", "--select", "NNL206", "--fix", str(directory))
    assert result.returncode == 0, result.stdout + result.stderr
    return directory


def test_there_are_fixable_cases():
    assert len(FIXABLE) >= 5


@pytest.mark.parametrize("path", FIXABLE, ids=[p.stem for p in FIXABLE])
def test_fixed_case_runs_clean(path: Path, fixed: Path):
    copy = fixed / path.name
    source = copy.read_text(encoding="utf-8")
    assert source != path.read_text(encoding="utf-8")
    assert not lint_source(source, str(copy), LintOptions(select=("NNL206",)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_case(copy, tiny_model())
