"""The fixes of the NNL1xx/NNL3xx rules are right at run time, on the real nnsight and tiny model.

For every marked case whose findings all carry a fix (`rules/<CODE>/*.py` written for the installed
nnsight): the fix removes every finding of that rule, and the fixed program
- runs clean when the case failed with an error (`# runtime-raises:`), or
- no longer shows the wrong value when the mistake was silent: the case's own final `assert`s,
  which state the wrong value, now fail.
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from nnsight_lint import rules
from nnsight_lint.engine.lint import LintOptions, lint_source
from nnsight_lint.engine.fixing import fix_text
from tests.case_runner import run_case
from tests.test_rule_family_cases_runtime import _installed_minor, headers
from tests.tiny_model import tiny_model

ROOT = Path(__file__).resolve().parent.parent / "rules"
FIXED_CODES = [code for code in ("NNL101", "NNL104", "NNL301") if code in rules.CODES]
MARKER = re.compile(r"#\s*expect:.*\b(NNL\d{3})\b")


def _cases():
    for code in FIXED_CODES:
        for path in sorted((ROOT / code).glob("*.py")):
            source = path.read_text(encoding="utf-8")
            target = headers(source).get("target-version")
            if code not in MARKER.findall(source) or (target is not None and target != _installed_minor()):
                continue
            findings = [d for d in lint_source(source, str(path), LintOptions(select=(code,))) if d.code == code]
            if findings and all(d.fix is not None for d in findings):
                yield pytest.param(code, path, id=f"{code}/{path.stem}")


@pytest.mark.parametrize("code, path", list(_cases()))
def test_fixed_case_runs_right(code: str, path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    options = LintOptions(select=(code,))
    outcome = fix_text(source, lambda text: lint_source(text, str(path), options), unsafe=True)
    assert outcome.fixed > 0
    assert [d for d in outcome.remaining if d.code == code] == []
    model = tiny_model()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if "runtime-raises" in headers(source):
            run_case(path, model, outcome.text)
        else:
            with pytest.raises(AssertionError):
                run_case(path, model, outcome.text)
