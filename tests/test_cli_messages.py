"""What a new user reads from `nnsight-lint`: the summary lines, usage errors and skipped files, as
real processes on real files, compared with the expected text (issue 23)."""
from __future__ import annotations

import shutil
from pathlib import Path

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
