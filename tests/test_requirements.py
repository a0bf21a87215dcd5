"""Every place a project declares the nnsight (or transformers) it needs, read as pip, poetry, uv,
pdm, pipenv and conda read it; the decision names the file and the line."""
from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from nnsight_lint.sources.config import Resolver, decide
from tests.support import run_cli

ROOT = Path(__file__).resolve().parent.parent

INSTALLED = metadata.version("nnsight")


def layout(root: Path, files: dict) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def decided(root: Path, package: str = "nnsight", at: str = "x.py"):
    return decide(str(root / at), package)


CASES = {
    "pep621": ({"pyproject.toml": '[project]\nname = "p"\ndependencies = [\n  "torch",\n  "nnsight==0.4.3",\n]\n'},
               "0.4.3", "pyproject.toml:5: nnsight==0.4.3"),
    "optional dependencies": ({"pyproject.toml": '[project]\nname = "p"\n[project.optional-dependencies]\n'
                                                 'interp = ["nnsight>=0.5,<0.6"]\n'},
                              "0.5", "pyproject.toml:4: nnsight>=0.5,<0.6 (a bounded range: its floor)"),
    "dependency groups": ({"pyproject.toml": '[dependency-groups]\ndev = ["pytest", "nnsight~=0.6.1"]\n'},
                          "0.6.1", "pyproject.toml:2: nnsight~=0.6.1"),
    # The case: a commented-out requirement above the live one in [tool.uv].
    "uv override over a comment": ({"pyproject.toml": '[project]\nname = "p"\ndependencies = [\n'
                                                      '  # "nnsight >= 0.5.15",\n  "torch",\n]\n'
                                                      '[tool.uv]\noverride-dependencies = ["nnsight==0.7.0"]\n'},
                                   "0.7.0", "pyproject.toml:8: nnsight==0.7.0"),
    "poetry table caret": ({"pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.10"\n'
                                              'nnsight = {version = "^0.5", optional = true}\n'},
                           "0.5", 'pyproject.toml:3: nnsight = {version = "^0.5", optional = true} (a bounded range'),
    "poetry caret 0.4 is bounded": ({"pyproject.toml": '[tool.poetry.dependencies]\nnnsight = "^0.4"\n'},
                                    "0.4", 'pyproject.toml:2: nnsight = "^0.4" (a bounded range: its floor)'),
    "poetry tilde in a group": ({"pyproject.toml": '[tool.poetry.group.dev.dependencies]\nnnsight = "~0.4.2"\n'},
                                "0.4.2", "pyproject.toml:2:"),
    "setup.cfg": ({"setup.cfg": "[metadata]\nname = p\n[options]\ninstall_requires =\n    torch\n"
                                "#    nnsight==0.2.0\n    nnsight==0.3.7  # the old API\n"},
                  "0.3.7", "setup.cfg:7: nnsight==0.3.7"),
    "setup.py literal list": ({"setup.py": 'from setuptools import setup\n# "nnsight==0.2"\n'
                                           'REQUIRES = [\n    "nnsight>=0.4.1",\n]\nsetup(install_requires=REQUIRES)\n'},
                              "0.4.1", "setup.py:4: nnsight>=0.4.1 (open-ended: its floor)"),
    "requirements -r include": ({"requirements.txt": "-r requirements/base.txt\n",
                                 "requirements/base.txt": "torch\n# nnsight==0.2\nnnsight==0.4.0 \\\n  --hash=sha256:00\n"},
                                "0.4.0", "requirements/base.txt:3: nnsight==0.4.0"),
    "requirements -c constraint": ({"requirements.txt": "-c constraints.txt\nnnsight\n",
                                    "constraints.txt": "nnsight==0.5.2\n"},
                                   "0.5.2", "constraints.txt:1: nnsight==0.5.2"),
    "environment.yml pip section": ({"environment.yml": "name: e\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n"
                                                        "    # - nnsight==0.2\n    - nnsight==0.6.0\n"},
                                    "0.6.0", "environment.yml:7: nnsight==0.6.0"),
    "environment.yml conda": ({"environment.yml": "dependencies:\n  - conda-forge::nnsight=0.4\n"},
                              "0.4", "environment.yml:2: conda-forge::nnsight=0.4"),
    "Pipfile": ({"Pipfile": '[packages]\nnnsight = "==0.4.5"\n'}, "0.4.5", 'Pipfile:2: nnsight = "==0.4.5"'),
    # A repo whose only pin is its lockfile.
    "uv.lock only": ({"pyproject.toml": '[project]\nname = "p"\ndependencies = ["nnsight"]\n',
                      "uv.lock": 'version = 1\n[[package]]\nname = "torch"\nversion = "2.1.0"\n\n'
                                 '[[package]]\nname = "nnsight"\nversion = "0.6.2"\n'},
                     "0.6.2", "uv.lock:7: nnsight 0.6.2 (the lockfile's version)"),
    "poetry.lock": ({"poetry.lock": '[[package]]\nname = "nnsight"\nversion = "0.4.3"\n'}, "0.4.3", "poetry.lock:2:"),
    "pdm.lock": ({"pdm.lock": '[[package]]\nname = "nnsight"\nversion = "0.5.1"\n'}, "0.5.1", "pdm.lock:2:"),
    "Pipfile.lock": ({"Pipfile.lock": '{\n  "default": {\n    "nnsight": {"version": "==0.4.2"}\n  }\n}\n'},
                     "0.4.2", "Pipfile.lock:3:"),
    "an exact pin beats the lockfile and a range": (
        {"requirements.txt": "nnsight>=0.4\n", "requirements-dev.txt": "nnsight==0.5.0\n",
         "uv.lock": '[[package]]\nname = "nnsight"\nversion = "0.6.2"\n'},
        "0.5.0", "requirements-dev.txt:1: nnsight==0.5.0"),
    "only an upper bound": ({"requirements.txt": "nnsight<0.5\n"}, "0.4", "requirements.txt:1: nnsight<0.5 (the newest below its upper bound)"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_source_decides_with_its_file_and_line(tmp_path, name):
    files, version, where = CASES[name]
    decision = decided(layout(tmp_path, files))
    assert decision.version == version and decision.pinned
    assert f"{tmp_path}/{where}" in decision.source, decision.source


@pytest.mark.parametrize("requirement, kind", [
    ("nnsight @ git+https://github.com/ndif-team/nnsight@dev", "a git or URL requirement"),
    ("-e git+https://github.com/ndif-team/nnsight#egg=nnsight", "a git or URL requirement"),
    ("nnsight", "no version"),
])
def test_unversioned_requirements_fall_back_to_the_installed_version_and_say_so(tmp_path, requirement, kind):
    (tmp_path / "requirements.txt").write_text(f"torch\n{requirement}\n")
    decision = decided(tmp_path)
    assert decision.version == INSTALLED and not decision.pinned
    assert decision.source == f"{tmp_path}/requirements.txt:2: {requirement}: {kind}; the installed nnsight {INSTALLED}"


def test_poetry_git_and_uv_sources_are_unversioned(tmp_path):
    layout(tmp_path, {"a/pyproject.toml": '[tool.poetry.dependencies]\nnnsight = {git = "https://x/nnsight.git"}\n',
                      "b/pyproject.toml": '[project]\nname = "b"\ndependencies = ["nnsight>=0.4"]\n'
                                          '[tool.uv.sources]\nnnsight = { git = "https://x/nnsight.git" }\n'})
    assert "a git or URL requirement" in decided(tmp_path / "a").source
    b = decided(tmp_path / "b")  # the range decides; the source table does not outrank it
    assert b.version == "0.4" and b.pinned


def test_a_commented_out_line_is_never_read(tmp_path):
    layout(tmp_path, {"requirements.txt": "# nnsight==0.2.0\ntorch  # nnsight==0.3\n",
                      "pyproject.toml": '[project]\nname = "p"\n# dependencies = ["nnsight==0.4"]\n'})
    decision = decided(tmp_path)
    assert not decision.pinned and "no project file declares nnsight" in decision.source


def test_the_nearest_declaration_wins_and_a_project_root_without_it_stops_the_search(tmp_path):
    layout(tmp_path, {"requirements.txt": "nnsight==0.4.3\n",
                      "legacy/requirements.txt": "nnsight==0.3.0\n",
                      "app/pyproject.toml": '[project]\nname = "app"\ndependencies = ["torch"]\n',
                      "notes/x.py": "x = 1\n"})
    assert decided(tmp_path, at="legacy/x.py").version == "0.3.0"
    assert decided(tmp_path, at="notes/x.py").version == "0.4.3"  # no project of its own: the parent's
    stopped = decided(tmp_path, at="app/x.py")
    assert not stopped.pinned and f"{tmp_path / 'app'} declares its dependencies without nnsight" in stopped.source


def test_transformers_is_read_by_the_same_reader(tmp_path):
    layout(tmp_path, {"pyproject.toml": '[project]\nname = "p"\ndependencies = ["nnsight==0.5.0", "transformers>=4.45,<5"]\n',
                      "uv.lock": '[[package]]\nname = "transformers"\nversion = "4.57.1"\n'})
    settings = Resolver().for_path(str(tmp_path / "x.py"))
    assert settings.transformers() == ("4.57.1", f"{tmp_path}/uv.lock:2: transformers 4.57.1 (the lockfile's version)")
    assert settings.lint_options().transformers_version == "4.57.1"
    assert settings.lint_options().target_version == (0, 5)


def test_transformers_version_setting_flag_and_models_table(tmp_path):
    layout(tmp_path, {"x.py": "x = 1\n", "pyproject.toml": '[tool.nnsight-lint]\ntransformers-version = "4.40"\n'
                                        '[tool.nnsight-lint.models]\ngpt2 = "openai-community/gpt2"\n'
                                        '"./ckpt" = "ckpt/config.json"\n'})
    options = Resolver().for_path(str(tmp_path / "x.py")).lint_options()
    assert options.transformers_version == "4.40"
    assert dict(options.models) == {"gpt2": "openai-community/gpt2", "./ckpt": "ckpt/config.json"}
    shown = run_cli("check", "--show-settings", "--transformers-version", "5.3", "x.py", cwd=tmp_path).stdout
    assert "# transformers-version: 5.3 (--transformers-version)" in shown
    assert '"gpt2" = "openai-community/gpt2"' in shown
    bad = run_cli("check", "--transformers-version", "five", cwd=tmp_path)
    assert bad.returncode == 2 and "not a version: 'five'" in bad.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint.models]\ngpt2 = 2\n')
    wrong = run_cli("check", "x.py", cwd=tmp_path)
    assert wrong.returncode == 2 and "'models' must be a table" in wrong.stderr and "Traceback" not in wrong.stderr


def test_show_settings_names_file_and_line(tmp_path):
    layout(tmp_path, {"requirements.txt": "torch\n\nnnsight==0.4.3  # pinned for the course\n", "x.py": "x = 1\n"})
    shown = run_cli("check", "--show-settings", "x.py", cwd=tmp_path).stdout
    assert f"# settings for: {tmp_path / 'x.py'}" in shown
    assert f"# target-version: 0.4 ({tmp_path}/requirements.txt:3: nnsight==0.4.3)" in shown


def test_old_api_in_an_unpinned_project_is_explained_once(tmp_path):
    legacy = ('from nnsight import LanguageModel\nmodel = LanguageModel("gpt2")\nwith model.trace("hello world"):\n'
              '    a = model.lm_head.output.save()\n    b = model.transformer.h[0].output.save()\nprint(a.value, b.value)\n')
    layout(tmp_path, {"loose/requirements.txt": "nnsight\n", "loose/a.py": legacy, "loose/b.py": legacy,
                      "pinned/requirements.txt": "nnsight==0.8.1\n", "pinned/a.py": legacy})
    result = run_cli("check", "--no-cache", ".", cwd=tmp_path)
    assert result.stdout.count("NNL301") == 6  # every finding is kept
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1, result.stderr
    assert f"4 findings of the old nnsight API (NNL3xx) in {tmp_path / 'loose'}, which does not pin nnsight" in notes[0]


def test_the_installed_version_read_from_dist_info_is_what_importlib_metadata_says():
    """The fast path (a directory scan of sys.path, no importlib.metadata import at start-up) gives
    every installed distribution the version importlib.metadata gives it, and knows when it has
    seen all importlib.metadata would."""
    from nnsight_lint.sources.requirements import _scanned_version

    names = {each.metadata["Name"] for each in metadata.distributions()}
    assert {"nnsight", "transformers", "libcst", "torch"} <= names
    assert {name: _scanned_version(name) for name in names} == {name: (metadata.version(name), True) for name in names}
    assert _scanned_version("no-such-distribution-nnsight-lint") == (None, True)


_PROBE = (
    "import sys\n"
    "from nnsight_lint.sources.requirements import installed_version\n"
    "print(installed_version(sys.argv[1]), 'importlib.metadata' in sys.modules)\n"
)


def test_a_package_not_installed_is_decided_without_importlib_metadata():
    result = subprocess.run([sys.executable, "-c", _PROBE, "no-such-distribution-nnsight-lint"],
                            capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.split() == ["None", "False"], result.stdout + result.stderr


def test_a_distribution_in_a_zip_on_sys_path_is_found_by_importlib_metadata(tmp_path):
    """A zip on sys.path is searched by importlib.metadata, not by the directory scan: there the
    scan does not decide that the package is missing."""
    import zipfile

    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_dist-1.2.3.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped-dist\nVersion: 1.2.3\n\n")
        zipped.writestr("zipped_dist/__init__.py", "")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(archive), str(ROOT)])}
    result = subprocess.run([sys.executable, "-c", _PROBE, "zipped-dist"], capture_output=True, text=True, cwd=ROOT,
                            env=env, check=True)
    assert result.stdout.split() == ["1.2.3", "True"], result.stdout + result.stderr
