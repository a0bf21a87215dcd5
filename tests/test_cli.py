"""`nnsight-lint check`, `explain` and `rules`, run as a real process on real files."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from nnsight_lint import messages, rules
from tests.support import TWO_INVOKES, TWO_INVOKES_FIXED, run_cli

ROOT = Path(__file__).resolve().parent.parent

CLEAN = TWO_INVOKES_FIXED



def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_reports_flake8_style_with_one_based_positions(tmp_path):
    write(tmp_path / "bad.py", TWO_INVOKES)
    result = run_cli("check", "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == f"bad.py:3:36: NNL001 [*] {messages.nnl001('backward()', 5)}\n"
    assert "Found 1 problem." in result.stderr


def test_clean_file_exits_zero(tmp_path):
    write(tmp_path / "good.py", CLEAN)
    result = run_cli("check", "good.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")
    assert "All checks passed." in result.stderr


def test_bundled_example_reports_nnl001():
    result = run_cli("check", "examples/", cwd=ROOT)
    assert result.returncode == 1
    assert result.stdout.startswith("examples/two_invokes.py:15:")
    assert " NNL001 " in result.stdout


def test_directory_walk_sorts_and_skips_ignored_and_virtualenvs(tmp_path):
    write(tmp_path / "b.py", TWO_INVOKES)
    write(tmp_path / "a" / "z.py", TWO_INVOKES)
    write(tmp_path / "ignored_dir" / "x.py", TWO_INVOKES)
    write(tmp_path / "skip_me.py", TWO_INVOKES)
    write(tmp_path / "env" / "pyvenv.cfg", "home = /usr\n")
    write(tmp_path / "env" / "lib.py", TWO_INVOKES)
    write(tmp_path / "build" / "gen.py", TWO_INVOKES)
    write(tmp_path / "stub.pyi", TWO_INVOKES)
    write(tmp_path / ".gitignore", "ignored_dir/\nskip_*.py\n")
    result = run_cli("check", "-q", cwd=tmp_path)
    paths = [line.split(":")[0] for line in result.stdout.splitlines()]
    assert paths == ["a/z.py", "b.py", "stub.pyi"]
    # Named explicitly, an ignored file is still checked.
    assert run_cli("check", "skip_me.py", cwd=tmp_path).returncode == 1


def test_gitignore_negation_and_anchoring(tmp_path):
    write(tmp_path / ".gitignore", "*.py\n!keep.py\n/top.py\n")
    write(tmp_path / "keep.py", TWO_INVOKES)
    write(tmp_path / "drop.py", TWO_INVOKES)
    write(tmp_path / "sub" / ".gitignore", "!drop.py\n")
    write(tmp_path / "sub" / "drop.py", TWO_INVOKES)
    paths = [line.split(":")[0] for line in run_cli("check", "-q", cwd=tmp_path).stdout.splitlines()]
    assert paths == ["keep.py", "sub/drop.py"]


def test_noqa_silences_only_the_named_code(tmp_path):
    bad_line = "        model.lm_head.output.sum().backward()\n    with"
    write(tmp_path / "all.py", TWO_INVOKES.replace(bad_line, bad_line.replace("()\n", "()  # noqa\n"), 1))
    write(tmp_path / "code.py", TWO_INVOKES.replace(bad_line, bad_line.replace("()\n", "()  # noqa: NNL001\n"), 1))
    write(tmp_path / "other.py", TWO_INVOKES.replace(bad_line, bad_line.replace("()\n", "()  # noqa: E501\n"), 1))
    result = run_cli("check", "-q", ".", cwd=tmp_path)
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["other.py"]


def test_select_and_ignore_by_code_or_prefix(tmp_path):
    write(tmp_path / "bad.py", TWO_INVOKES)
    assert run_cli("check", "--ignore", "NNL001", "bad.py", cwd=tmp_path).returncode == 0
    assert run_cli("check", "--ignore", "NNL", "bad.py", cwd=tmp_path).returncode == 0
    assert run_cli("check", "--select", "NNL0", "bad.py", cwd=tmp_path).returncode == 1
    assert run_cli("check", "--select", "NNL000", "bad.py", cwd=tmp_path).returncode == 0
    unknown = run_cli("check", "--select", "XYZ9", "bad.py", cwd=tmp_path)
    assert unknown.returncode == 2 and "XYZ9" in unknown.stderr


def test_exit_zero_and_quiet(tmp_path):
    write(tmp_path / "bad.py", TWO_INVOKES)
    result = run_cli("check", "--exit-zero", "--quiet", "bad.py", cwd=tmp_path)
    assert result.returncode == 0
    assert "NNL001" in result.stdout and result.stderr == ""


def test_syntax_error_is_nnl000_and_the_run_goes_on(tmp_path):
    write(tmp_path / "a_broken.py", "with model.trace():\n    def f(:\n        loss.backward()\n")
    write(tmp_path / "b_bad.py", TWO_INVOKES)
    result = run_cli("check", "-q", ".", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "a_broken.py:2:11: NNL000 invalid syntax"  # CPython says no more; said once
    assert lines[1].startswith("b_bad.py:3:36: NNL001")
    assert "Traceback" not in result.stderr


def test_files_that_cannot_hold_a_finding_are_not_parsed(tmp_path):
    # The raw-text pre-filter: no `.trace` opener, so not even a syntax error is looked for.
    write(tmp_path / "other.py", "def f(:\n    loss.backward()\n")
    assert run_cli("check", "other.py", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe\x00garbage\nwith m.trace(): x.backward()",
        b"# -*- coding: no-such-codec -*-\nwith m.trace():\n    x.backward()\n",
        b"with m.trace():\n    x.backward('\xe9')\n",
        b"\x00\x00\nwith m.trace(): x.backward()",
        b"",
    ],
    ids=["binary", "unknown-codec", "not-utf8", "nul", "empty"],
)
def test_bad_bytes_never_give_a_traceback(tmp_path, content):
    (tmp_path / "weird.py").write_bytes(content)
    result = run_cli("check", "weird.py", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    if content:
        assert result.returncode == 1
        assert result.stdout.startswith("weird.py:")
        assert "NNL000" in result.stdout
    else:
        assert result.returncode == 0


def test_stdin_with_a_display_name():
    result = run_cli("check", "-", "--stdin-filename", "notebook_cell.py", stdin=TWO_INVOKES)
    assert result.returncode == 1
    assert result.stdout.startswith("notebook_cell.py:3:36: NNL001")


def test_missing_path_is_a_usage_error(tmp_path):
    result = run_cli("check", "nope.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "nope.py" in result.stderr and "Traceback" not in result.stderr


def test_unreadable_file_is_an_error_not_a_traceback(tmp_path):
    if os.geteuid() == 0:
        # root reads every file; reading /proc/self/mem from offset 0 fails for anyone.
        (tmp_path / "mem.py").symlink_to("/proc/self/mem")
        target = "mem.py"
    else:
        path = write(tmp_path / "locked.py", TWO_INVOKES)
        path.chmod(0)
        target = "locked.py"
    result = run_cli("check", target, cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert result.returncode == 2 and target in result.stderr


def test_explain_prints_the_rule_page_that_docs_hold():
    result = run_cli("explain", "nnl001")
    assert result.returncode == 0
    assert result.stdout == (ROOT / "docs" / "rules" / "NNL001.md").read_text(encoding="utf-8")
    for section in ("## Symptom", "## Cause", "## Wrong code", "## Right code", "## Fix safety", "## How to silence"):
        assert section in result.stdout
    assert run_cli("explain", "NNL999").returncode == 2


def test_docs_pages_are_generated_from_the_rules():
    for code in rules.RULES:
        page = ROOT / "docs" / "rules" / f"{code}.md"
        assert page.read_text(encoding="utf-8") == rules.explanation(code), f"run scripts/docs.py ({page})"


def test_rules_lists_every_rule():
    result = run_cli("rules")
    assert result.returncode == 0
    header, *lines = result.stdout.splitlines()
    assert header.split() == ["code", "name", "default", "fix", "nnsight", "summary"]
    assert [line.split()[0] for line in lines] == list(rules.RULES)
    assert lines[1].split()[:5] == ["NNL001", "backward-frees-shared-graph", "on", "safe", "all"]


def test_version_does_not_import_libcst():
    probe = "import sys, nnsight_lint.doors.cli as c; c.main(['--version']); print('libcst' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout.strip().endswith("False")


def test_usage_errors_exit_two():
    assert run_cli("frobnicate").returncode == 2
    assert run_cli("check", "--no-such-flag").returncode == 2


def test_deep_nesting_is_nnl000_not_a_crash(tmp_path):
    # libcst's native parser overflows its stack on this; the engine must refuse it first.
    write(tmp_path / "deep.py", "with model.trace():\n    loss.backward()\ny = " + "[" * 3000 + "]" * 3000 + "\n")
    result = run_cli("check", "deep.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("deep.py:3:") and "NNL000" in result.stdout


def test_force_exclude_says_the_named_file_was_excluded(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\nextend-exclude = ["legacy/"]\n')
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.py").write_text(TWO_INVOKES)
    result = run_cli("check", "--no-cache", "--force-exclude", "legacy/old.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")
    # Not in the `path:` form of a finding: pre-commit shows it beside real findings.
    assert "not checked, excluded by the settings (--force-exclude): legacy/old.py" in result.stderr
    piped = run_cli("check", "--force-exclude", "-", "--stdin-filename", "legacy/old.py", cwd=tmp_path, stdin=TWO_INVOKES)
    assert "excluded by the settings (--force-exclude): legacy/old.py" in piped.stderr
    # Without --force-exclude a named file is checked, and nothing is said about exclusion.
    checked = run_cli("check", "--no-cache", "legacy/old.py", cwd=tmp_path)
    assert checked.returncode == 1 and "excluded" not in checked.stderr


@pytest.mark.parametrize("output_format", ["github", "sarif"])
def test_statistics_with_annotation_formats_is_a_usage_error(tmp_path, output_format):
    (tmp_path / "train.py").write_text(TWO_INVOKES)
    result = run_cli("check", "--statistics", "--output-format", output_format, "train.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert f"cannot be combined with --output-format {output_format}" in result.stderr


def test_show_settings_prints_absolute_paths(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\nselect = ["NNL"]\n')
    (tmp_path / "sub").mkdir()
    result = run_cli("check", "--config", "../pyproject.toml", "--show-settings", cwd=tmp_path / "sub")
    lines = result.stdout.splitlines()
    assert lines[0] == f"# settings for: {tmp_path / 'sub'}"
    assert lines[1] == f"# config file: {tmp_path / 'pyproject.toml'}"
    assert lines[2] == f"# project root: {tmp_path}"


def test_readme_names_every_rule_with_its_name():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code, rule in rules.RULES.items():
        if code != "NNL000":
            assert f"[{code}](docs/rules/{code}.md) {rule.NAME}" in readme, code
