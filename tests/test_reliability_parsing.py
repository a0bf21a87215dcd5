"""Issue 13, parsing side: deep or pathological files, syntax errors the slicing hides, huge
integers in notebooks, parenthesised last arguments. Every run is the real CLI in a subprocess with
a timeout, so a parser segfault fails a test instead of killing pytest."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nnsight_lint.doors import cli
from nnsight_lint.engine.lint import parsed_part
from nnsight_lint.engine.fixing import apply_edits, fix_text
from nnsight_lint.diagnostics import Edit, Position
from nnsight_lint.engine.lint import lint_source
from tests.support import ROOT, TWO_INVOKES, TWO_INVOKES_FIXED

LAYOUTS_DIR = Path(__file__).resolve().parent / "fix_layouts"
TIMEOUT = 240


def run(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nnsight_lint", *args, "--no-cache"], cwd=cwd, capture_output=True, text=True,
        timeout=TIMEOUT, env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"},
    )


def in_invoke(statement: str) -> str:
    """The two-invoke trace with `statement` (one line or more) at the top of the first invoke."""
    body = "".join(f"        {line}\n" for line in statement.splitlines())
    return TWO_INVOKES.replace('    with tracer.invoke("hello world"):\n', f'    with tracer.invoke("hello world"):\n{body}', 1)


# -- deep but valid code is analysed (item 6) --------------------------------------------------------

DEEP_VALID = {
    "elif_489": "if a:\n    pass\n" + "elif a:\n    pass\n" * 489,
    "sum_490": "x = " + " + ".join(["a"] * 490),
    "chained_calls_245": "x = a" + "()" * 245,
    "joined_strings_489": "x = " + " ".join(['"s"'] * 489),
    "method_chain_1000": "x = a" + ".f()" * 400,
    "and_chain_8000": "x = " + " and ".join(["a"] * 8000),  # past libcst's crash point on an 8 MiB stack
}


def test_deep_valid_code_is_analysed_and_fixed(tmp_path) -> None:
    for name, statement in DEEP_VALID.items():
        (tmp_path / f"{name}.py").write_text(in_invoke(statement))
    result = run("check", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "error" not in result.stderr
    assert sorted(line.split(":")[0] for line in result.stdout.splitlines()) == sorted(f"{n}.py" for n in DEEP_VALID)
    assert all(" NNL001 " in line for line in result.stdout.splitlines())
    fixed = run("check", "--fix", ".", cwd=tmp_path)
    assert (fixed.returncode, fixed.stderr) == (0, f"Fixed {len(DEEP_VALID)} problems, 0 remaining.\n")


# -- pathological files are refused before parsing, and the run goes on (item 5) -----------------------

PATHOLOGICAL = {
    "attribute_chain_7000": ("x = a" + ".b" * 7000, "too deeply nested"),
    "sum_10000": ("x = " + " + ".join(["a"] * 10000), "too deeply nested"),
    "elif_9000": ("if a:\n    pass\n" + "elif a:\n    pass\n" * 9000, "too deeply nested"),
    "nested_calls_1500": ("x = " + "f(" * 1500 + "a" + ")" * 1500, "too many nested parentheses"),
    "joined_strings_4000": ("x = " + " ".join(['"s"'] * 4000), "4000 adjacent strings"),
    "and_chain_60000": ("x = " + " and ".join(["a"] * 60000), "59999 `and`/`or`"),
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_pathological_files_are_refused_and_the_others_still_report(tmp_path, jobs) -> None:
    for name, (statement, _) in PATHOLOGICAL.items():
        (tmp_path / f"{name}.py").write_text(in_invoke(statement))
    (tmp_path / "plain.py").write_text(TWO_INVOKES)
    result = run("check", "--jobs", jobs, ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    for name, (_, reason) in PATHOLOGICAL.items():
        [line] = [line for line in lines if line.startswith(f"{name}.py:")]
        assert " NNL000 " in line and reason in line
    assert [line for line in lines if line.startswith("plain.py:")] == [
        line for line in run("check", "plain.py", cwd=tmp_path).stdout.splitlines()
    ]


def test_a_refused_file_is_never_fixed(tmp_path) -> None:
    target = tmp_path / "deep.py"
    target.write_text(in_invoke(PATHOLOGICAL["sum_10000"][0]))
    before = target.read_bytes()
    result = run("check", "--fix", "deep.py", cwd=tmp_path)
    assert result.returncode == 1 and " NNL000 " in result.stdout
    assert target.read_bytes() == before


def test_summary_never_says_passed_when_a_file_was_not_checked() -> None:
    assert cli._summary(0, 0, 1) == "Found 0 problems. 1 file could not be checked."
    assert cli._summary(0, 0) == "All checks passed."


# -- a syntax error the slicing blanks is reported; --fix refuses, editors still fix (item 7) -----------

HELPER_BROKEN = "def helper(x):\n    return x +* 2\n\n\n" + TWO_INVOKES  # helper not used by the trace


def test_syntax_error_in_a_blanked_helper_is_reported_with_the_other_findings(tmp_path) -> None:
    (tmp_path / "broken.py").write_text(HELPER_BROKEN)
    result = run("check", "broken.py", cwd=tmp_path)
    assert result.returncode == 1
    codes = [line.split(" ")[1] for line in result.stdout.splitlines()]
    assert codes == ["NNL000", "NNL001"]
    assert result.stdout.startswith("broken.py:2:")


def test_fix_leaves_a_file_with_a_syntax_error_and_says_why(tmp_path) -> None:
    target = tmp_path / "broken.py"
    target.write_text(HELPER_BROKEN)
    result = run("check", "--fix", "broken.py", cwd=tmp_path)
    assert target.read_text() == HELPER_BROKEN
    assert result.returncode == 2
    assert "error: broken.py: not fixed: the file has a syntax error (line 2, column" in result.stderr
    assert "fix it first" in result.stderr and "internal error" not in result.stderr
    assert " NNL000 " in result.stdout


def test_fix_all_for_editors_applies_the_fixes_that_add_no_syntax_error() -> None:
    # What the LSP server's fix-all runs (lsp._fix_all): the helper stays broken, the trace is fixed.
    lint = lambda text: lint_source(text, "broken.py")  # noqa: E731
    outcome = fix_text(HELPER_BROKEN, lint, checked_part=parsed_part)
    assert outcome.text == HELPER_BROKEN.replace(TWO_INVOKES, TWO_INVOKES_FIXED)
    assert [d.code for d in outcome.remaining] == ["NNL000"]


# -- a notebook with a huge integer (item 8) -----------------------------------------------------------


def test_notebook_with_a_huge_integer_is_fixed_and_the_run_goes_on(tmp_path) -> None:
    cell = {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
            "source": TWO_INVOKES.splitlines(keepends=True)}
    text = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell]}, indent=1)
    text = text.replace('"execution_count": 1', '"execution_count": 1' + "0" * 5000)
    (tmp_path / "a_big.ipynb").write_text(text)
    (tmp_path / "b_plain.py").write_text(TWO_INVOKES)
    diff = run("check", "--diff", ".", cwd=tmp_path)
    assert diff.returncode == 1 and "Traceback" not in diff.stderr
    assert "a_big.ipynb:cell 1" in diff.stdout and "b/b_plain.py" in diff.stdout
    fixed = run("check", "--fix", ".", cwd=tmp_path)
    assert (fixed.returncode, fixed.stderr) == (0, "Fixed 2 problems, 0 remaining.\n")
    assert (tmp_path / "a_big.ipynb").read_text() == text.replace(".backward()\\n\",\n", ".backward(retain_graph=True)\\n\",\n", 1)
    assert (tmp_path / "b_plain.py").read_text() == TWO_INVOKES_FIXED


# -- a parenthesised last argument: the JSON edit equals what --fix writes (item 2) ----------------------

PARENTHESISED = sorted(LAYOUTS_DIR.glob("parenthesised_*.in.py"))


@pytest.mark.parametrize("layout", PARENTHESISED, ids=[p.name for p in PARENTHESISED])
def test_json_edits_applied_by_a_client_equal_the_fixed_file(layout: Path, tmp_path) -> None:
    target = tmp_path / "program.py"
    target.write_bytes(layout.read_bytes())
    report = json.loads(run("check", "--output-format", "json", "program.py", cwd=tmp_path).stdout)["findings"]
    edits = [
        Edit(Position(e["location"]["row"], e["location"]["column"]),
             Position(e["end_location"]["row"], e["end_location"]["column"]), e["content"])
        for finding in report if finding.get("fix") for e in finding["fix"]["edits"]
    ]
    by_client = apply_edits(layout.read_text(), edits)
    assert run("check", "--fix", "program.py", cwd=tmp_path).returncode == 0
    assert by_client == target.read_text() == layout.with_name(layout.name.replace(".in.", ".out.")).read_text()
    compile(by_client, "program.py", "exec")
