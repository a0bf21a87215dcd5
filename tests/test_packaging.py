"""The package as a user gets it: `python -m build` makes an sdist and a wheel from a copy of this
tree, `twine check` accepts both, and their file lists hold what they should and nothing else.

The build runs with `--no-isolation`: an isolated build would create a fresh environment and
pip-install setuptools into it on every run (a download, seconds of time). The `test` extra pins a
setuptools that reads the SPDX `license` string (>= 77), so the result is the same.
"""
from __future__ import annotations

import email
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from tests.support import TWO_INVOKES

import nnsight_lint

ROOT = Path(__file__).resolve().parent.parent
VERSION = nnsight_lint.__version__
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv*", "__pycache__", "build", "dist", "*.egg-info", ".nnsight_lint_cache",
    ".pytest_cache",
)


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict:
    """Build from a copy, so the build's by-products (egg-info, build/) never land in the checkout."""
    work = tmp_path_factory.mktemp("packaging")
    source, out = work / "src", work / "dist"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        capture_output=True, text=True,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist, "source": source, "log": built.stdout + built.stderr}


def package_sources(source: Path) -> set[str]:
    """The modules, and the generated tables read next to their loader (nnsight_lint/knowledge/models/)."""
    files = [*(source / "nnsight_lint").rglob("*.py"), *(source / "nnsight_lint").rglob("*.json")]
    return {p.relative_to(source).as_posix() for p in files}


def test_build_has_no_deprecation_warnings(dists):
    # setuptools warned four times per build about the old `license = {text = ...}` table.
    assert "SetuptoolsDeprecationWarning" not in dists["log"], dists["log"]
    assert "as a TOML table is deprecated" not in dists["log"]


def test_twine_check_accepts_both(dists):
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(dists["wheel"]), str(dists["sdist"])],
        capture_output=True, text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


def test_wheel_holds_the_package_and_nothing_else(dists):
    names = set(zipfile.ZipFile(dists["wheel"]).namelist())
    info = f"nnsight_lint-{VERSION}.dist-info/"
    assert {n for n in names if not n.startswith(info)} == package_sources(dists["source"])
    assert f"{info}licenses/LICENSE" in names
    assert f"{info}entry_points.txt" in names


def test_sdist_holds_the_package_and_its_description_but_no_tests(dists):
    with tarfile.open(dists["sdist"]) as archive:
        prefix = f"nnsight_lint-{VERSION}/"
        names = {m.name[len(prefix):] for m in archive.getmembers() if m.isfile()}
    top = {n for n in names if "/" not in n}
    assert top == {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "MANIFEST.in", "PKG-INFO", "setup.cfg"}
    python = {n for n in names if n.endswith(".py") or n.startswith("nnsight_lint/") and n.endswith(".json")}
    assert python == package_sources(dists["source"])  # no tests/, rules/, benchmarks/, scripts/


def test_metadata_says_licence_urls_and_tomli(dists):
    with zipfile.ZipFile(dists["wheel"]) as archive:
        meta = email.message_from_bytes(archive.read(f"nnsight_lint-{VERSION}.dist-info/METADATA"))
    assert meta["Version"] == VERSION
    assert meta["License-Expression"] == "MIT"
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Repository", "Issues", "Changelog"} <= set(urls)
    requires = meta.get_all("Requires-Dist")
    assert 'tomli>=1.1; python_version < "3.11"' in requires
    core = [r for r in requires if "extra ==" not in r]
    assert sorted(r.split(">")[0].split(";")[0] for r in core) == ["libcst", "packaging", "tomli"]  # core stays light


def test_the_docs_name_what_the_core_install_needs():
    """Where the docs say what a plain install brings (a line naming libcst), they name packaging
    too, and the project's core requirements are exactly those (tomli only before 3.11)."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert sorted(re.split(r"[<>=;\s]", r)[0] for r in declared) == ["libcst", "packaging", "tomli"]
    pages = [ROOT / "README.md", ROOT / "docs" / "ci.md", ROOT / "docs" / "pre-commit.md", ROOT / "docs" / "architecture.md"]
    for page in pages:
        text = " ".join(page.read_text(encoding="utf-8").split())
        said = [s for s in re.split(r"(?<=[.:])\s|\n", text) if "libcst" in s and re.search(r"\binstalls?\b|\bonly\b", s)]
        assert said, f"{page.name} does not say what the core install needs"
        for sentence in said:
            assert "packaging" in sentence, f"{page.name}: {sentence}"


def test_changelog_has_a_section_for_this_version():
    assert f"## [{VERSION}]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def _old_python() -> str | None:
    for name in ("python3.10", "python3.9"):
        for candidate in (shutil.which(name), *sorted(Path("/root/.pyenv/versions").glob(f"{name[6:]}.*/bin/python"))):
            if candidate and subprocess.run([str(candidate), "-c", ""], capture_output=True).returncode == 0:
                return str(candidate)
    return None


def test_installed_wheel_reads_pyproject_on_python_without_tomllib(dists, tmp_path):
    """On 3.9/3.10 a project with [tool.nnsight-lint] exited 2 ("needs tomli"), in pre-commit too."""
    python = _old_python()
    if python is None:
        pytest.skip("no Python 3.9 or 3.10 on this machine")
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True)
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
         str(dists["wheel"])],
        capture_output=True, text=True,
    )
    assert installed.returncode == 0, installed.stderr
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.nnsight-lint]\nextend-exclude = ["legacy/"]\n')
    (project / "train.py").write_text(TWO_INVOKES)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    checked = subprocess.run(
        [str(venv / "bin" / "nnsight-lint"), "check", "--no-cache", "train.py"],
        cwd=project, capture_output=True, text=True, env=env,
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "train.py:3:" in checked.stdout and "NNL001" in checked.stdout
