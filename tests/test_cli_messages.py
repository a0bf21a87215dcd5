"""What a new user reads from `nnsight-lint`: the summary lines, usage errors and skipped files, as
real processes on real files, compared with the expected text (issue 23)."""
from __future__ import annotations

import dataclasses

import shutil
from pathlib import Path

import pytest

from nnsight_lint import rules
from tests.support import TWO_INVOKES, run_cli

ROOT = Path(__file__).resolve().parent.parent
UNSAFE_ONLY = ROOT / "rules" / "NNL104" / "saved_then_output_zeroed.py"  # NNL104's fix is unsafe


# --- [*] marks what plain --fix applies; unsafe fixes are "hidden", as ruff says ---------------------


def test_an_unsafe_only_fix_is_not_advertised_as_fixable(tmp_path):
    shutil.copy(UNSAFE_ONLY, tmp_path / "f.py")
    result = run_cli("check", "--no-cache", "--select", "NNL104", "f.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "[*]" not in result.stdout and " NNL104 " in result.stdout
    assert result.stderr == "Found 1 problem.\nNo fixes available (1 hidden fix can be enabled with `--unsafe-fixes`).\n"

    shown = run_cli("check", "--no-cache", "--select", "NNL104", "--unsafe-fixes", "f.py", cwd=tmp_path)
    assert " NNL104 [*] " in shown.stdout
    assert shown.stderr == "Found 1 problem.\n[*] 1 fixable with `nnsight-lint check --fix --unsafe-fixes`.\n"


def test_fix_that_applies_nothing_says_why(tmp_path):
    path = tmp_path / "f.py"
    shutil.copy(UNSAFE_ONLY, path)
    before = path.read_bytes()
    result = run_cli("check", "--no-cache", "--select", "NNL104", "--fix", "f.py", cwd=tmp_path)
    assert path.read_bytes() == before and result.returncode == 1
    assert result.stderr == "Found 1 problem.\nNo fixes applied (1 hidden fix can be enabled with `--unsafe-fixes`).\n"
    fixed = run_cli("check", "--no-cache", "--select", "NNL104", "--fix", "--unsafe-fixes", "f.py", cwd=tmp_path)
    assert fixed.returncode == 0 and path.read_bytes() != before
    assert fixed.stderr == "Fixed 1 problem, 0 remaining.\n"


def test_safe_and_hidden_fixes_are_counted_apart(tmp_path):
    shutil.copy(UNSAFE_ONLY, tmp_path / "a.py")
    (tmp_path / "b.py").write_text(TWO_INVOKES, encoding="utf-8")
    result = run_cli("check", "--no-cache", "--select", "NNL001,NNL104", "a.py", "b.py", cwd=tmp_path)
    assert result.stderr == (
        "Found 2 problems.\n[*] 1 fixable with `nnsight-lint check --fix` (1 hidden fix can be enabled with `--unsafe-fixes`).\n"
    )
    statistics = run_cli("check", "--no-cache", "--select", "NNL001,NNL104", "--statistics", "a.py", "b.py", cwd=tmp_path)
    assert statistics.stdout == "1\tNNL001\t[*] backward-frees-shared-graph\n1\tNNL104\t    inplace-alias-save\n"


# --- NNL000 says "invalid syntax" once ---------------------------------------------------------------


def test_invalid_syntax_is_said_once(tmp_path):
    (tmp_path / "a.py").write_text("import nnsight\nx = = 1\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("import nnsight\nx = (1\n", encoding="utf-8")
    result = run_cli("check", "--no-cache", "a.py", "b.py", cwd=tmp_path)
    assert result.stdout == "a.py:2:5: NNL000 invalid syntax\nb.py:2:5: NNL000 invalid syntax: '(' was never closed\n"


# --- usage errors are one line, as ruff prints them -------------------------------------------------

CHECK_HELP = "(`nnsight-lint check --help` lists the options)"


@pytest.mark.parametrize("args,line", [
    (["check", "--selct", "NNL1"], f"unexpected argument '--selct'; did you mean '--select'? {CHECK_HELP}"),
    (["check", "--bogus"], f"unexpected argument '--bogus' {CHECK_HELP}"),
    (["rules", "--output-fromat", "json"], "unexpected argument '--output-fromat'; did you mean '--output-format'? "
                                           "(`nnsight-lint rules --help` lists the options)"),
    (["check", "--target-version", "8"], f"argument --target-version: not a version: '8' (expected MAJOR.MINOR, e.g. \"0.8\") {CHECK_HELP}"),
    (["check", "--target-version", "0.9"], f"argument --target-version: nnsight 0.9 is unknown: the rules know nnsight up to 0.8 {CHECK_HELP}"),
    (["check", "--jobs", "0"], f"argument --jobs/-j: must be at least 1, not 0 {CHECK_HELP}"),
    (["check", "--jobs", "two"], f"argument --jobs/-j: not a number: 'two' {CHECK_HELP}"),
])
def test_usage_errors_are_one_line(args, line, tmp_path):
    result = run_cli(*args, cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"nnsight-lint: error: {line}\n")


def test_a_patch_release_is_read_as_its_minor_and_said(tmp_path):
    shutil.copy(UNSAFE_ONLY, tmp_path / "f.py")
    result = run_cli("check", "--no-cache", "--target-version", "0.8.1", "f.py", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stderr.splitlines()[0] == (
        "nnsight-lint: --target-version 0.8.1 is read as 0.8: the rules tell minor releases apart, not patches"
    )


def test_extend_select_adds_an_opt_in_rule_to_the_defaults(tmp_path):
    shutil.copy(UNSAFE_ONLY, tmp_path / "a.py")
    (tmp_path / "b.py").write_text(TWO_INVOKES, encoding="utf-8")
    plain = run_cli("check", "--no-cache", "-q", "a.py", "b.py", cwd=tmp_path)
    extended = run_cli("check", "--no-cache", "-q", "--extend-select", "NNL104", "a.py", "b.py", cwd=tmp_path)
    codes = lambda r: [line.split()[1] for line in r.stdout.splitlines()]  # noqa: E731
    assert codes(plain) == ["NNL001"] and codes(extended) == ["NNL104", "NNL001"]


def test_show_files_lists_what_would_be_checked(tmp_path):
    (tmp_path / "a.py").write_text(TWO_INVOKES, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not python", encoding="utf-8")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / ".venv" / "b.py").write_text(TWO_INVOKES, encoding="utf-8")
    result = run_cli("check", "--show-files", ".", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, f"{tmp_path / 'a.py'}\n")


def test_verbose_says_settings_target_and_files(tmp_path):
    (tmp_path / "a.py").write_text(TWO_INVOKES, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("nnsight==0.4.3\n", encoding="utf-8")
    result = run_cli("check", "--no-cache", "-v", "a.py", cwd=tmp_path)
    said = [line for line in result.stderr.splitlines() if line.startswith("nnsight-lint: ")]
    assert said == [
        "nnsight-lint: settings: no config file (the defaults)",
        f"nnsight-lint: target nnsight 0.4 ({tmp_path / 'requirements.txt'}:1: nnsight==0.4.3)",
        "nnsight-lint: checked 1 file:",
        "nnsight-lint:   a.py",
    ]


def test_explain_takes_a_rule_name():
    by_name = run_cli("explain", "backward-frees-shared-graph")
    assert by_name.returncode == 0 and by_name.stdout == run_cli("explain", "NNL001").stdout


def test_rules_as_json():
    import json

    result = run_cli("rules", "--output-format", "json")
    listed = json.loads(result.stdout)
    assert [item["code"] for item in listed] == list(rules.RULES)
    first = next(item for item in listed if item["code"] == "NNL104")
    assert first["name"] == "inplace-alias-save" and first["default"] is False and first["fix"] == "unsafe"


# --- a notebook of another language named on the command line is said to be skipped ----------------


def test_a_julia_notebook_named_is_said_skipped(tmp_path):
    import json

    notebook = {"nbformat": 4, "nbformat_minor": 5, "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": "println(1 +)"}],
        "metadata": {"kernelspec": {"name": "julia-1.10", "language": "julia", "display_name": "Julia"},
                     "language_info": {"name": "julia"}}}
    (tmp_path / "analysis.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    result = run_cli("check", "--no-cache", "analysis.ipynb", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stderr == "nnsight-lint: not checked, its kernel is not Python: analysis.ipynb\nAll checks passed.\n"


# --- short messages, the story in `full`: the convention of messages.py, over the whole rule corpus --

PROSE_LIMIT = 90  # characters of a message's own words; the code it quotes (`...`) counts as one


def _corpus_findings():
    from nnsight_lint.engine.lint import LintOptions, lint_source

    from nnsight_lint.doors.api import lint_file
    from tests.test_rule_cases import options_for

    everything = LintOptions(select=tuple(rules.RULES))
    for case in sorted((ROOT / "rules").glob("NNL*/*.py")):
        source = case.read_text(encoding="utf-8")
        # Every rule, on the nnsight the case is written for (a rule for old releases reports only there).
        yield from lint_source(source, str(case), dataclasses.replace(options_for(source), select=everything.select))
    for case in sorted((ROOT / "rules").glob("NNL*/*.ipynb")):  # what only a cell magic shows (NNL208)
        yield from lint_file(str(case), everything).diagnostics


def test_every_message_is_short_and_tells_its_story_apart():
    import re

    found = list(_corpus_findings())
    assert {d.code for d in found} >= set(rules.RULES) - {"NNL000"}
    for d in found:
        prose = re.sub(r"`[^`]*`", "`", d.message)
        assert len(prose) <= PROSE_LIMIT, f"{d.code} message too long ({len(prose)}): {d.message}"
        assert not d.message.endswith("."), d.message
        assert d.code == "NNL000" or d.detail.endswith("."), f"{d.code} has no story: {d.message}"


def test_the_migration_run_says_value_once():
    """`.value` on a saved name (gone in 0.4) and on saved values in a list (gone in 0.5): two
    situations, one message; the release is in the story."""
    from nnsight_lint.engine.lint import LintOptions, lint_source

    code = (
        "import nnsight\n"
        "with model.trace('hello world'):\n"
        "    hidden = model.transformer.h[0].output.save()\n"
        "    states = nnsight.save([model.transformer.h[1].output])\n"
        "print(hidden.value.shape)\n"
        "print(states[0].value.shape)\n"
    )
    found = [d for d in lint_source(code, "migrate.py", LintOptions(target_version=(0, 5))) if d.code == "NNL301"]
    assert len(found) == 2 and len({d.message for d in found}) == 1
    assert len({d.detail for d in found}) == 2


def test_full_tells_the_story_the_concise_line_leaves_out(tmp_path):
    from nnsight_lint import messages

    (tmp_path / "b.py").write_text(TWO_INVOKES, encoding="utf-8")
    concise = run_cli("check", "--no-cache", "b.py", cwd=tmp_path).stdout
    full = run_cli("check", "--no-cache", "--output-format", "full", "b.py", cwd=tmp_path).stdout
    story = messages.nnl001("backward()", 5).detail
    assert story and story.split()[0] not in concise
    said = " ".join(line.split("= why: ")[-1].strip() for line in full.splitlines()
                    if "= why: " in line or line.startswith("         "))
    assert said == story


def test_show_fixes_lists_what_fix_changed_by_file_and_rule(tmp_path):
    (tmp_path / "b.py").write_text(TWO_INVOKES, encoding="utf-8")
    would = run_cli("check", "--no-cache", "--show-fixes", "b.py", cwd=tmp_path)
    assert would.stdout.endswith("\nWould fix 1 problem:\n- b.py:\n    1 × NNL001 (backward-frees-shared-graph)\n")
    done = run_cli("check", "--no-cache", "--show-fixes", "--fix", "b.py", cwd=tmp_path)
    assert done.stdout == "\nFixed 1 problem:\n- b.py:\n    1 × NNL001 (backward-frees-shared-graph)\n"
    assert done.stderr == "Fixed 1 problem, 0 remaining.\n"


# --- a table spelt almost as ours is said not to be read ---------------------------------------------


@pytest.mark.parametrize("table", ["tool.nnsight_lint", "tool.nnsightlint", "tool.NNsight-Lint"])
def test_a_misspelt_table_is_warned_about(tmp_path, table):
    (tmp_path / "pyproject.toml").write_text(f'[{table}]\nselect = ["NNL1"]\n', encoding="utf-8")
    (tmp_path / "b.py").write_text(TWO_INVOKES, encoding="utf-8")
    result = run_cli("check", "--no-cache", "--show-settings", ".", cwd=tmp_path)
    warning = f"warning: {tmp_path / 'pyproject.toml'}: [{table}] is not read; did you mean [tool.nnsight-lint]?\n"
    assert result.stderr == warning and "\n# no config file: defaults\n" in result.stdout
    spelt = run_cli("check", "--no-cache", "--show-settings", ".", cwd=tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\nselect = ["NNL1"]\n', encoding="utf-8")
    right = run_cli("check", "--no-cache", "--show-settings", ".", cwd=tmp_path)
    assert right.stderr == "" and spelt.stderr == warning
