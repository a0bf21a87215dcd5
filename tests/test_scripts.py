"""scripts/setup.sh and scripts/test.sh, run by bash in a copy of the repository whose `.venv`
python only logs what it is asked to do: what they install, when they install nothing, and what a
path argument runs."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAKE_PYTHON = """#!/usr/bin/env bash
echo "python $*" >> "$(dirname "$0")/../../calls.log"
"""


def project(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for name in ("scripts/setup.sh", "scripts/test.sh", "pyproject.toml", "requirements/test-constraints.txt"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, repo / name)
    (repo / ".ci").mkdir()
    (repo / ".ci" / "runtime-old-nnsight.sh").write_text('echo "old nnsight suite" >> calls.log\n')
    (repo / ".ci" / "old-nnsight-venvs.sh").write_text('echo "0.3/0.4 venvs" >> calls.log\n')
    python = repo / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    (tmp_path / "bin").mkdir()
    nvim = tmp_path / "bin" / "nvim"  # present: nothing to install with apt-get
    nvim.write_text("#!/bin/sh\n")
    nvim.chmod(0o755)
    return repo


def run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{repo.parent / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", *args], cwd=repo, capture_output=True, text=True, timeout=60, env=env)


def calls(repo: Path) -> list:
    log = repo / "calls.log"
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return lines


def test_setup_says_what_it_installs_then_installs_nothing_until_something_changes(tmp_path):
    repo = project(tmp_path)
    first = run(repo, "scripts/setup.sh")
    assert first.returncode == 0, first.stderr
    assert "torch==2.13.0" in first.stderr and "test extras" in first.stderr
    installs = [c for c in calls(repo) if "pip install" in c]
    assert [c.split()[-1] for c in installs] == ["pip", "torch==2.13.0", ".[test]"]

    again = run(repo, "scripts/setup.sh")  # the fake python finds every package, the stamp matches
    assert again.returncode == 0 and "already set up" in again.stderr, again.stderr
    assert not [c for c in calls(repo) if "pip install" in c]

    (repo / "pyproject.toml").write_text((repo / "pyproject.toml").read_text() + "\n# a new dependency\n")
    changed = run(repo, "scripts/setup.sh")
    assert "already set up" not in changed.stderr
    assert len([c for c in calls(repo) if "pip install" in c]) == 3


def test_a_path_argument_runs_just_those_tests(tmp_path):
    repo = project(tmp_path)
    run(repo, "scripts/setup.sh")
    calls(repo)
    only = run(repo, "scripts/test.sh", "tests/test_cli.py")
    assert only.returncode == 0, only.stderr
    assert "already set up" in only.stderr
    assert calls(repo)[-1] == "python -m pytest -q tests/test_cli.py"
    whole = run(repo, "scripts/test.sh")
    assert whole.returncode == 0, whole.stderr
    assert calls(repo)[-3:] == ["old nnsight suite", "0.3/0.4 venvs", "python -m pytest -q"]
