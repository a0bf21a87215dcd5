"""`[tool.nnsight-lint]` in pyproject.toml: found upward, checked strictly, overridden by flags."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support import TWO_INVOKES, TWO_INVOKES_FIXED, run_cli

ROOT = Path(__file__).resolve().parent.parent

BAD, FIXED = TWO_INVOKES, TWO_INVOKES_FIXED


def run(*args, cwd, stdin=None):
    return run_cli("check", *args, cwd=cwd, stdin=stdin)


def project(tmp_path: Path, config: str, files=("bad.py",)) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text(f"[project]\nname = 'demo'\n\n[tool.nnsight-lint]\n{config}")
    for name in files:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BAD)
    return tmp_path


def reported(result) -> list:
    return sorted(line.split(":")[0] for line in result.stdout.splitlines())


def test_the_nearest_pyproject_above_the_first_path_applies(tmp_path):
    project(tmp_path / "proj", 'ignore = ["NNL001"]\n', files=("pkg/sub/bad.py",))
    # Run from outside the project: the search starts at the path, not the working directory.
    assert run("pkg/sub/bad.py", cwd=tmp_path / "proj").returncode == 0
    assert run("proj/pkg/sub/bad.py", cwd=tmp_path).returncode == 0
    (tmp_path / "elsewhere.py").write_text(BAD)
    assert run("elsewhere.py", cwd=tmp_path).returncode == 1  # no config above it: the defaults


def test_a_pyproject_without_our_table_is_passed_over(tmp_path):
    project(tmp_path, 'ignore = ["NNL001"]\n', files=("pkg/bad.py",))
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project]\nname = 'inner'\n[tool.black]\nline-length = 99\n")
    assert run("bad.py", cwd=tmp_path / "pkg").returncode == 0


def test_flags_override_the_file(tmp_path):
    project(tmp_path, 'ignore = ["NNL001"]\nselect = ["NNL000"]\n')
    assert run("bad.py", cwd=tmp_path).returncode == 0
    assert run("--select", "NNL", "--ignore", "NNL000", "bad.py", cwd=tmp_path).returncode == 1
    assert run("--select", "NNL001", "bad.py", cwd=tmp_path).returncode == 0  # the file's ignore still holds


def test_exclude_and_extend_exclude_are_gitignore_globs_from_the_project_root(tmp_path):
    files = ("a.py", "legacy/old.py", "gen/x_pb2.py", "src/gen/keep.py", "notes/deep/n.py")
    project(tmp_path, 'exclude = ["/gen/", "*_pb2.py"]\nextend-exclude = ["legacy", "notes/**"]\n', files=files)
    assert reported(run(".", cwd=tmp_path)) == ["a.py", "src/gen/keep.py"]
    # From a subdirectory the globs still count from the project root.
    assert reported(run(".", cwd=tmp_path / "src")) == ["gen/keep.py"]
    # A file named explicitly is checked, unless --force-exclude (pre-commit names every file).
    assert run("legacy/old.py", cwd=tmp_path).returncode == 1
    forced = run("--force-exclude", "legacy/old.py", "a.py", cwd=tmp_path)
    assert reported(forced) == ["a.py"]
    # --exclude replaces the file's `exclude`; --extend-exclude adds to everything.
    assert reported(run("--exclude", "a.py", ".", cwd=tmp_path)) == ["gen/x_pb2.py", "src/gen/keep.py"]
    assert reported(run("--extend-exclude", "src", ".", cwd=tmp_path)) == ["a.py"]


def test_per_file_ignores_in_check_and_fix(tmp_path):
    project(tmp_path, '[tool.nnsight-lint.per-file-ignores]\n"tests/*" = ["NNL001"]\n"scratch_*.py" = ["NNL"]\n',
            files=("src/bad.py", "tests/test_bad.py", "deep/scratch_1.py"))
    assert reported(run(".", cwd=tmp_path)) == ["src/bad.py"]
    run("--fix", ".", cwd=tmp_path)
    assert (tmp_path / "src" / "bad.py").read_text() == FIXED
    assert (tmp_path / "tests" / "test_bad.py").read_text() == BAD  # ignored there: not fixed either
    stdin = run("-", "--stdin-filename", "tests/t.py", cwd=tmp_path, stdin=BAD)
    assert (stdin.returncode, stdin.stdout) == (0, "")


def test_force_exclude_applies_to_the_stdin_filename(tmp_path):
    project(tmp_path, 'extend-exclude = ["legacy/"]\n', files=())
    assert run("-", "--stdin-filename", "legacy/x.py", cwd=tmp_path, stdin=BAD).returncode == 1
    skipped = run("--force-exclude", "-", "--stdin-filename", "legacy/x.py", cwd=tmp_path, stdin=BAD)
    assert (skipped.returncode, skipped.stdout) == (0, "")


def test_respect_gitignore(tmp_path):
    project(tmp_path, "respect-gitignore = false\n", files=("a.py", "ignored/b.py"))
    (tmp_path / ".gitignore").write_text("ignored/\n")
    assert reported(run(".", cwd=tmp_path)) == ["a.py", "ignored/b.py"]


def test_trace_names(tmp_path):
    project(tmp_path, 'trace-names = ["trace", "scan"]\n', files=())
    (tmp_path / "scan.py").write_text(BAD.replace("model.trace()", "model.scan()"))
    assert reported(run(".", cwd=tmp_path)) == ["scan.py"]
    (tmp_path / "pyproject.toml").write_text("[tool.nnsight-lint]\n")
    assert run(".", cwd=tmp_path).returncode == 0  # default: only `.trace()` opens a trace


def test_show_settings_prints_the_resolved_settings(tmp_path):
    from importlib import metadata

    project(tmp_path, 'select = ["nnl"]\nnotebooks = false\ntrace-names = ["trace", "scan"]\n'
                      '[tool.nnsight-lint.per-file-ignores]\n"tests/*" = ["NNL001"]\n', files=())
    result = run("--show-settings", "--extend-exclude", "legacy/", cwd=tmp_path)
    assert result.returncode == 0
    config = tmp_path / "pyproject.toml"
    nnsight, transformers = metadata.version("nnsight"), metadata.version("transformers")
    assert result.stdout == f"""\
# settings for: {tmp_path}
# config file: {config}
# project root: {tmp_path}
# target-version: {'.'.join(nnsight.split('.')[:2])} (no project file declares nnsight; the installed nnsight {nnsight})
# transformers-version: {transformers} (no project file declares transformers; the installed transformers {transformers})
[tool.nnsight-lint]
select = ["NNL"]  # {config}
ignore = []  # default
exclude = []  # default
extend-exclude = ["legacy/"]  # --extend-exclude
per-file-ignores = {{"tests/*" = ["NNL001"]}}  # {config}
respect-gitignore = true  # default
notebooks = false  # {config}
report-deliberate-errors = false  # default
live-schemas = false  # default
trace-names = ["trace", "scan"]  # {config}
"""


def test_config_flag_names_the_file(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "strict.toml").write_text('ignore = ["NNL001"]\n')  # a file of its own: the top level is the table
    assert run("--config", "strict.toml", "bad.py", cwd=tmp_path).returncode == 0
    missing = run("--config", "nope.toml", "bad.py", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.toml" in missing.stderr


def test_unknown_key_wrong_type_bad_code_and_bad_toml_exit_two_naming_key_and_file(tmp_path):
    cases = {
        'selec = ["NNL001"]\n': ["unknown key 'selec'", "did you mean 'select'"],
        'select = "NNL001"\n': ["'select' must be a list of rule codes or prefixes", "a string"],
        "respect-gitignore = 1\n": ["'respect-gitignore' must be true or false"],
        'trace-names = ["model.trace"]\n': ["'trace-names' must be a non-empty list of names"],
        'ignore = ["XYZ9"]\n': ["'ignore'", "XYZ9"],
        '[tool.nnsight-lint.per-file-ignores]\n"t/*" = "NNL001"\n': ["'per-file-ignores' must be a table"],
        "select = [\n": ["invalid TOML"],
    }
    for config, expected in cases.items():
        project(tmp_path, config)
        result = run("bad.py", cwd=tmp_path)
        assert result.returncode == 2, config
        assert str(tmp_path / "pyproject.toml") in result.stderr, result.stderr
        for text in expected:
            assert text in result.stderr, (config, result.stderr)
        assert "Traceback" not in result.stderr


def test_loading_settings_imports_no_libcst(tmp_path):
    project(tmp_path, 'ignore = ["NNL001"]\n')
    probe = (
        "import sys; from nnsight_lint.sources.config import load_settings; "
        "s = load_settings(['bad.py']); print(s.ignore, 'libcst' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.stdout.strip() == "('NNL001',) False", result.stderr


def test_target_version_is_inferred_from_the_declared_nnsight_requirement(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch\nnnsight>=0.2.9  # old API\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "x.py").write_text("x = 1\n")
    shown = run("--show-settings", "pkg/x.py", cwd=tmp_path).stdout
    assert f"# target-version: 0.2 ({tmp_path / 'requirements.txt'}:2: nnsight>=0.2.9 (open-ended: its floor))" in shown


def test_target_version_setting_and_flag_win_over_the_declaration(tmp_path):
    (tmp_path / "requirements.txt").write_text("nnsight==0.4.3\n")
    project(tmp_path, 'target-version = "0.7"\n', files=())
    assert f"# target-version: 0.7 ({tmp_path / 'pyproject.toml'}: target-version)" in run("--show-settings", cwd=tmp_path).stdout
    flagged = run("--show-settings", "--target-version", "0.8.1", cwd=tmp_path).stdout
    assert "# target-version: 0.8 (" in flagged


def test_a_bad_target_version_is_a_usage_error(tmp_path):
    project(tmp_path, 'target-version = "new"\n', files=())
    result = run("--show-settings", cwd=tmp_path)
    assert result.returncode == 2 and "'target-version' must be an nnsight version" in result.stderr
    flag = run("--target-version", "latest", cwd=tmp_path)
    assert flag.returncode == 2 and "not a version: 'latest'" in flag.stderr


def test_target_version_is_looked_for_from_the_checked_path_not_the_working_directory(tmp_path):
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text('[project]\nname = "p"\ndependencies = ["nnsight>=0.6"]\n')
    (tmp_path / "proj" / "x.py").write_text("x = 1\n")
    shown = run("--show-settings", "proj/x.py", cwd=tmp_path).stdout
    assert "# target-version: 0.6 (" in shown


def test_a_per_file_ignores_key_may_start_with_dot_slash(tmp_path):
    project(tmp_path, '[tool.nnsight-lint.per-file-ignores]\n"./bad.py" = ["NNL001"]\n"./src/*.py" = ["NNL001"]\n',
            files=("bad.py", "src/other.py", "keep/bad.py"))
    assert reported(run(".", cwd=tmp_path)) == ["keep/bad.py"]


def test_one_file_named_under_two_spellings_is_checked_and_fixed_once(tmp_path):
    project(tmp_path / "d", "", files=("a.py",))
    listed = run("./a.py", "../d/a.py", cwd=tmp_path / "d")
    assert reported(listed) == ["a.py"] and "Found 1 problem." in listed.stderr
    fixed = run("--fix", "./a.py", "../d/a.py", "a.py", cwd=tmp_path / "d")
    assert "Fixed 1 problem" in fixed.stderr and (tmp_path / "d" / "a.py").read_text() == FIXED


def test_a_target_version_no_nnsight_had_is_refused(tmp_path):
    project(tmp_path, 'target-version = "0.0"\n', files=())
    result = run("--show-settings", cwd=tmp_path)
    assert result.returncode == 2 and "'target-version' must be an nnsight version" in result.stderr
    flag = run("--target-version", "0.0", ".", cwd=tmp_path)
    assert flag.returncode == 2 and "no nnsight release is '0.0'" in flag.stderr
