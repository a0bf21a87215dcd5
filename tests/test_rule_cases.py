"""The rule corpus is the specification: on every case, the linter's findings equal the
`# expect: CODE` markers, line for line, for the nnsight the case is written for (its
`# target-version: X.Y` header, else the newest)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from nnsight_lint import rules
from nnsight_lint.knowledge import versions
from nnsight_lint.engine.lint import LintOptions, lint_source

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
CASES = sorted(RULES_DIR.glob("NNL*/*.py"))
_MARKER = re.compile(r"#.*\bexpect:\s*(?P<codes>NNL\d{3}(?:\s*,\s*NNL\d{3})*)")
_TARGET = re.compile(r"^#\s*target-version:\s*(\S+)\s*$", re.MULTILINE)


def options_for(source: str, folder: str = "") -> LintOptions:
    """The case's target nnsight; an opt-in rule is selected (besides the default ones) in its own folder."""
    target = _TARGET.search(source)
    version = versions.parse(target.group(1)) if target else versions.NEWEST
    select: tuple = ()
    if folder in rules.CODES and not rules.is_default(folder):
        select = (*rules.selected(), folder)
    return LintOptions(select=select, target_version=version)


def expected_findings(source: str):
    found = set()
    for number, line in enumerate(source.splitlines(), start=1):
        match = _MARKER.search(line)
        if match:
            found |= {(number, code.strip()) for code in match.group("codes").split(",")}
    return found


def test_corpus_is_large_enough():
    assert len(list(RULES_DIR.glob("NNL001/*.py"))) >= 40


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_findings_equal_markers(case: Path):
    source = case.read_text(encoding="utf-8")
    options = options_for(source, case.parent.name)
    actual = {(d.line, d.code) for d in lint_source(source, str(case), options)}
    # Markers of a rule still being written (or opt-in and not selected) wait for it; every finding
    # must be a marker.
    running = set(rules.selected(options.select, (), options.target_version))
    assert actual == {(line, code) for line, code in expected_findings(source) if code in running}
