"""Settings per file, as ruff resolves them: a folder of three projects with different nnsight
targets (and a root table of its own) gives the same findings for every file whatever the run
starts from, whatever order the paths come in, and through every door: the CLI, real pre-commit
(which passes file lists), real flake8 and the real language server."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import TWO_INVOKES, run_cli

ROOT = Path(__file__).resolve().parent.parent

# `.value` after the trace: the old proxy API, right for nnsight 0.3 and NNL301 for 0.5+.
LEGACY = """\
from nnsight import LanguageModel

model = LanguageModel("gpt2")
with model.trace("hello world"):
    out = model.lm_head.output.save()
print(out.value)
"""

TREE = {
    # The folder's own table: the files no project of their own claims are written for 0.3.
    "pyproject.toml": '[tool.nnsight-lint]\ntarget-version = "0.3"\n',
    "top/legacy.py": LEGACY,
    "top/two.py": TWO_INVOKES,
    # An old course: requirements pin 0.3.
    "old/requirements.txt": "torch\nnnsight==0.3.7\n",
    "old/setup.py": 'from setuptools import setup\nsetup(name="old", install_requires=["torch"])\n',
    "old/legacy.py": LEGACY,
    "old/two.py": TWO_INVOKES,
    # A modern project: its pyproject declares nnsight 0.6+, without a table.
    "new/pyproject.toml": '[project]\nname = "new"\ndependencies = ["nnsight>=0.6"]\n',
    "new/legacy.py": LEGACY,
    "new/two.py": TWO_INVOKES,
    # A project pinned only by its lockfile, with a table that turns NNL001 off.
    "locked/pyproject.toml": '[project]\nname = "locked"\ndependencies = ["nnsight"]\n'
                             '[tool.nnsight-lint]\nignore = ["NNL001"]\n',
    "locked/uv.lock": 'version = 1\n[[package]]\nname = "nnsight"\nversion = "0.5.0"\n',
    "locked/legacy.py": LEGACY,
    "locked/two.py": TWO_INVOKES,
}
# (file, code) every door must report: nothing else.
EXPECTED = sorted([
    ("top/two.py", "NNL001"), ("old/two.py", "NNL001"), ("new/two.py", "NNL001"),
    ("new/legacy.py", "NNL301"), ("locked/legacy.py", "NNL301"),
])


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "tree"
    for name, text in TREE.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def found(output: str, base: Path, tree: Path):
    """(file relative to the tree, code) of each concise finding line, its path relative to `base`."""
    out = []
    for line in output.splitlines():
        path, _, _, rest = line.split(":", 3)
        out.append((os.path.relpath(base / path, tree).replace(os.sep, "/"), rest.split()[0]))
    return sorted(out)


def check(tree: Path, cwd: Path, *paths: str):
    result = run_cli("check", "--no-cache", "-q", *paths, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return found(result.stdout, cwd, tree)


def test_the_same_findings_from_the_root_from_each_project_and_in_any_order(tree):
    assert check(tree, tree, ".") == EXPECTED
    per_project = []
    for project in ("top", "old", "new", "locked"):
        per_project += check(tree, tree / project, ".")
    assert sorted(per_project) == EXPECTED
    files = sorted(str(Path(name)) for name in TREE if name.endswith(".py"))
    assert check(tree, tree, *files) == EXPECTED
    assert check(tree, tree, *reversed(files)) == EXPECTED
    assert check(tree, tree, "old", "new") == check(tree, tree, "new", "old")
    assert check(tree, tree / "new", "../locked/legacy.py", ".", "../old/legacy.py") == [
        ("locked/legacy.py", "NNL301"), ("new/legacy.py", "NNL301"), ("new/two.py", "NNL001")]


def test_the_cache_keeps_each_project_apart(tree):
    first = run_cli("check", "-q", ".", cwd=tree)
    again = run_cli("check", "-q", "new", "old", "locked", "top", cwd=tree)  # from the cache, other order
    assert found(first.stdout, tree, tree) == found(again.stdout, tree, tree) == EXPECTED


def test_show_settings_tells_each_file_its_own(tree):
    shown = run_cli("check", "--show-settings", "old/two.py", "new/two.py", "locked/two.py", "top/two.py", cwd=tree).stdout
    assert f"# target-version: 0.3 ({tree}/old/requirements.txt:2: nnsight==0.3.7)" in shown
    assert f"# target-version: 0.6 ({tree}/new/pyproject.toml:3: nnsight>=0.6 (open-ended: its floor))" in shown
    assert f"# target-version: 0.5 ({tree}/locked/uv.lock:3: nnsight 0.5.0 (the lockfile's version))" in shown
    assert f"# target-version: 0.3 ({tree}/pyproject.toml: target-version)" in shown
    assert f'ignore = ["NNL001"]  # {tree}/locked/pyproject.toml' in shown


def test_config_flag_overrides_every_project(tree):
    (tree / "strict.toml").write_text('target-version = "0.8"\n')
    result = run_cli("check", "--no-cache", "-q", "--config", "strict.toml", ".", cwd=tree)
    got = found(result.stdout, tree, tree)
    assert ("locked/two.py", "NNL001") in got  # the project's own table no longer applies
    assert {f for f, code in got if code == "NNL301"} == {"top/legacy.py", "old/legacy.py", "new/legacy.py",
                                                           "locked/legacy.py"}


def test_flake8_reports_what_check_reports_from_anywhere(tree):
    def flake8(cwd: Path, *paths: str):
        result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NNL", *paths],
                                cwd=cwd, capture_output=True, text=True)
        assert result.returncode in (0, 1), result.stderr
        return found(result.stdout, cwd, tree)

    # Which codes run is flake8's business, so the `ignore` of locked/'s table does not apply there;
    # what the code means (each project's target) does.
    expected = sorted(EXPECTED + [("locked/two.py", "NNL001")])
    assert flake8(tree, ".") == expected
    assert flake8(tree / "new", ".", "../old") == sorted(e for e in expected if e[0].startswith(("new/", "old/")))
    assert flake8(tree / "locked", ".") == sorted(e for e in expected if e[0].startswith("locked/"))


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_pre_commit_passing_file_lists_reports_each_project_as_check_does(tree, tmp_path):
    from tests.test_pre_commit import _clean_env, git

    hook = tmp_path / "hook-repo"
    hook.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(ROOT / name, hook / name)
    shutil.copytree(ROOT / "nnsight_lint", hook / "nnsight_lint", ignore=shutil.ignore_patterns("__pycache__"))
    for repo in (hook, tree):
        git("init", "-q", cwd=repo)
        git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "snapshot", cwd=hook)
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook), "nnsight-lint", "--verbose", "--all-files"],
        cwd=tree, capture_output=True, text=True, timeout=1200,
        env={**_clean_env(), "PRE_COMMIT_HOME": str(tmp_path / "home"), "PRE_COMMIT_COLOR": "never"},
    )
    lines = [line for line in (result.stdout + result.stderr).splitlines() if ": NNL" in line]
    assert result.returncode == 1, result.stdout + result.stderr
    assert found("\n".join(lines), tree, tree) == EXPECTED


def test_the_language_server_lints_each_document_with_its_projects_settings(tree):
    from tests.test_lsp import Client

    client = Client()
    try:
        client.initialize()
        got = []
        for name in sorted(n for n in TREE if n.endswith(".py")):
            uri = (tree / name).as_uri()
            for diagnostic in client.open(TREE[name], uri=uri)["diagnostics"]:
                got.append((name, diagnostic["code"]))
        assert sorted(got) == EXPECTED
        assert client.shutdown_and_exit() == 0
    finally:
        client.stop()


# --- respect-gitignore is each walked directory's own setting (issue 22) ----------------------------


def test_respect_gitignore_is_the_walked_projects_own(tmp_path):
    """Two projects under one .gitignore that ignores `generated/`: the one whose table says
    `respect-gitignore = false` has its generated files checked, the other not, whichever the run
    starts from and in any path order."""
    root = tmp_path / "work"
    for project, table in (("keeps", ""), ("checks-all", "respect-gitignore = false\n")):
        (root / project / "generated").mkdir(parents=True)
        (root / project / "pyproject.toml").write_text(f"[tool.nnsight-lint]\n{table}", encoding="utf-8")
        (root / project / "generated" / "gen.py").write_text(TWO_INVOKES, encoding="utf-8")
        (root / project / "own.py").write_text(TWO_INVOKES, encoding="utf-8")
    (root / ".gitignore").write_text("generated/\n", encoding="utf-8")
    (root / ".git").mkdir()  # the repository top: the .gitignore above a project is read from here

    def shown(*paths, cwd=root):
        result = run_cli("check", "--no-cache", "--show-files", *paths, cwd=cwd)
        assert result.returncode == 0, result.stderr
        return sorted(os.path.relpath(line, root) for line in result.stdout.splitlines())

    expected = ["checks-all/generated/gen.py", "checks-all/own.py", "keeps/own.py"]
    assert shown(".") == expected
    assert shown("keeps", "checks-all") == shown("checks-all", "keeps") == expected
    assert shown(".", cwd=root / "keeps") == ["keeps/own.py"]
    assert shown(".", cwd=root / "checks-all") == ["checks-all/generated/gen.py", "checks-all/own.py"]
    found = run_cli("check", "--no-cache", "-q", ".", cwd=root).stdout
    assert "checks-all/generated/gen.py" in found and "keeps/generated" not in found
