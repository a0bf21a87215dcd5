"""The layout is the architecture: docs/architecture.md names the packages the tree has, and every
documented way in works from an installed wheel by its documented name."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from tests.support import TWO_INVOKES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nnsight_lint"
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_the_doc_names_exactly_the_packages_of_the_tree():
    listed = re.search(r"<!-- packages:.*?-->(.*?)<!-- /packages -->", DOC, re.S).group(1)
    named = set(re.findall(r"`nnsight_lint/(\w+)/`", listed))
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert named == packages


def test_every_module_the_doc_names_exists():
    modules = {p.name for folder in (PACKAGE, ROOT / "scripts", ROOT / "tests") for p in folder.rglob("*.py")}
    named = set(re.findall(r"\b(\w+\.py)\b", DOC)) - {"nnlNNN.py"}
    assert named and named <= modules, named - modules


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtualenv holding the wheel built from a copy of this tree; its dependencies (libcst,
    and nnsight, flake8, pytest, IPython for the doors) come from this environment's site-packages,
    listed after the venv's own, so the package itself is the installed wheel's."""
    work = tmp_path_factory.mktemp("install")
    source, out, venv = work / "src", work / "dist", work / "venv"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "__pycache__", "build", "dist", "*.egg-info", ".nnsight_lint_cache", ".pytest_cache"))
    built = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(out),
                            str(source)], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = out.glob("*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.check_output([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                        text=True).strip())
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return venv


def run(venv: Path, *args: str, cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, env=env, timeout=300, **kw)


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / "train.py").write_text(TWO_INVOKES)
    return tmp_path


def test_the_package_is_the_installed_wheel(installed, project):
    where = run(installed, str(installed / "bin" / "python"), "-c", "import nnsight_lint; print(nnsight_lint.__file__)",
                cwd=project)
    assert where.stdout.startswith(str(installed)), where.stdout + where.stderr


@pytest.mark.parametrize("command", [["bin/nnsight-lint"], ["bin/python", "-m", "nnsight_lint"]])
def test_the_command_and_python_dash_m(installed, project, command):
    checked = run(installed, str(installed / command[0]), *command[1:], "check", "--no-cache", "train.py", cwd=project)
    assert checked.returncode == 1 and "train.py:3:" in checked.stdout and "NNL001" in checked.stdout, checked.stderr


def test_the_flake8_plugin(installed, project):
    checked = run(installed, str(installed / "bin" / "python"), "-m", "flake8", "--select", "NNL", "train.py", cwd=project)
    assert checked.returncode == 1 and "train.py:3:" in checked.stdout and "NNL001" in checked.stdout, checked.stderr


def test_the_pytest_plugin_and_the_runtime_module(installed, project):
    (project / "test_case.py").write_text(
        "import nnsight_lint.runtime, nnsight_lint.doors.runtime\n"
        "def test_one_module_under_two_names():\n"
        "    assert nnsight_lint.runtime is nnsight_lint.doors.runtime\n"
        "    assert nnsight_lint.runtime.is_installed()\n"
    )
    ran = run(installed, str(installed / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
              "-p", "nnsight_lint.pytest_plugin", "test_case.py", cwd=project)
    assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout + ran.stderr


def test_the_ipython_extension(installed, project):
    script = (
        "from IPython.testing.globalipapp import start_ipython\n"
        "shell = start_ipython()\n"
        "shell.run_line_magic('load_ext', 'nnsight_lint')\n"
        "import nnsight_lint.runtime as r\n"
        "print('installed', r.is_installed())\n"
        "shell.run_line_magic('unload_ext', 'nnsight_lint')\n"
        "print('after unload', r.is_installed())\n"
    )
    ran = run(installed, str(installed / "bin" / "python"), "-c", script, cwd=project)
    assert "installed True" in ran.stdout and "after unload False" in ran.stdout, ran.stdout + ran.stderr
