"""The pre-commit hooks, run by the real `pre-commit try-repo` on a real git repository.

`try-repo` clones the hook repository at a commit (uncommitted tracked changes included, untracked
files not), so the fixture commits a copy of this working tree to a throwaway repository first.
Each `try-repo` builds the hook's virtualenv anew with pip from the package index, in a store it
deletes afterwards, so the runs here are few; the environment's contents are checked through
`pre-commit install-hooks`, whose store (PRE_COMMIT_HOME) stays.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support import TWO_INVOKES, TWO_INVOKES_FIXED

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")

BAD, FIXED = TWO_INVOKES, TWO_INVOKES_FIXED
CONFIG = '[tool.nnsight-lint]\nextend-exclude = ["legacy/"]\n'


def git(*args, cwd):
    subprocess.run(
        ["git", "-c", "user.name=nnsight-lint tests", "-c", "user.email=tests@example.invalid",
         "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
        cwd=cwd, check=True, capture_output=True, env=_clean_env(),
    )


def _clean_env():
    # A test run inside a git hook must not point these commands at the outer repository.
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    """This working tree's package, committed to a throwaway repository."""
    repo = tmp_path_factory.mktemp("hook-repo")
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(ROOT / name, repo / name)
    shutil.copytree(ROOT / "nnsight_lint", repo / "nnsight_lint", ignore=shutil.ignore_patterns("__pycache__"))
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "snapshot for pre-commit try-repo", cwd=repo)
    return repo


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def make_project(path: Path) -> Path:
    path.mkdir()
    (path / "bad.py").write_text(BAD)
    (path / "good.py").write_text(FIXED)
    (path / "legacy").mkdir()
    (path / "legacy" / "old.py").write_text(BAD)  # excluded by the config: skipped though pre-commit names it
    (path / "pyproject.toml").write_text(CONFIG)
    git("init", "-q", cwd=path)
    git("add", "-A", cwd=path)
    return path


def try_repo(hook_repo: Path, home: Path, hook: str, project: Path, *args: str):
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, "--verbose", *args],
        cwd=project, capture_output=True, text=True, timeout=1200,
        env={**_clean_env(), "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"},
    )
    return result.returncode, result.stdout + result.stderr


def test_check_hook_fails_on_the_bad_file_and_passes_on_the_good_one(hook_repo, pre_commit_home, tmp_path):
    project = make_project(tmp_path / "project")
    code, output = try_repo(hook_repo, pre_commit_home, "nnsight-lint", project, "--all-files")
    assert code == 1, output
    assert "bad.py:3:36: NNL001 [*]" in output
    assert "good.py:" not in output and "legacy/old.py:" not in output
    assert "Found 1 problem." in output

    code, output = try_repo(hook_repo, pre_commit_home, "nnsight-lint", project, "--files", "good.py")
    assert code == 0, output
    assert "Passed" in output


def test_fix_hook_rewrites_the_bad_file_so_a_second_run_passes(hook_repo, pre_commit_home, tmp_path):
    project = make_project(tmp_path / "project")
    code, output = try_repo(hook_repo, pre_commit_home, "nnsight-lint-fix", project, "--all-files")
    assert code == 1, output  # it changed a file
    assert (project / "bad.py").read_text() == FIXED
    assert (project / "legacy" / "old.py").read_text() == BAD  # --force-exclude kept it out
    assert (project / "good.py").read_text() == FIXED

    code, output = try_repo(hook_repo, pre_commit_home, "nnsight-lint", project, "--all-files")
    assert code == 0, output


def test_installing_the_hook_installs_neither_torch_nor_nnsight(hook_repo, pre_commit_home, tmp_path):
    project = make_project(tmp_path / "project")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hook_repo, capture_output=True, text=True,
                          check=True, env=_clean_env()).stdout.strip()
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hook_repo}\n  rev: {head}\n  hooks:\n  - id: nnsight-lint\n  - id: nnsight-lint-fix\n"
    )
    installed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install-hooks"], cwd=project, capture_output=True, text=True,
        timeout=1200, env={**_clean_env(), "PRE_COMMIT_HOME": str(pre_commit_home)},
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    pythons = glob.glob(str(pre_commit_home / "repo*" / "py_env-*" / "bin" / "python"))
    assert len(pythons) == 1, pythons
    names = "import importlib.metadata as m; print('\\n'.join(d.metadata['Name'] for d in m.distributions()))"
    listing = subprocess.run([pythons[0], "-c", names], capture_output=True, text=True, check=True)
    installed = {name.strip().lower().replace("_", "-") for name in listing.stdout.split()}
    assert {"nnsight-lint", "libcst"} <= installed
    assert not installed & {"torch", "nnsight", "transformers"}, installed
