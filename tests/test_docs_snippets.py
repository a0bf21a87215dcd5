"""Snippets in the docs work when copied: each is taken out of its page and run through the real
tool it is written for (check-jsonschema's GitHub schemas, Vim, the CLI itself)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support import TWO_INVOKES, run_cli

import nnsight_lint

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def code_blocks(page: Path, language: str) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.S | re.M)


def check_jsonschema(schema: str, *files: Path) -> subprocess.CompletedProcess:
    # The vendored schemas ship inside check-jsonschema: no network.
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, files)],
        capture_output=True, text=True,
    )


# --- docs/ci.md and action.yml -------------------------------------------------------------------

def workflows() -> list[str]:
    return [b for b in code_blocks(DOCS / "ci.md", "yaml") if b.startswith("# .github/workflows/")]


def test_ci_workflows_are_valid_github_workflows(tmp_path):
    blocks = workflows()
    assert len(blocks) == 2
    files = []
    for number, block in enumerate(blocks):
        assert re.search(r"^on:", block, re.M), block  # a workflow without `on:` never runs
        files.append(tmp_path / f"workflow{number}.yml")
        files[-1].write_text(block, encoding="utf-8")
    checked = check_jsonschema("vendor.github-workflows", *files)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_ci_workflow_schema_check_can_fail(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text(workflows()[0].replace("on:\n", "when:\n", 1), encoding="utf-8")
    assert check_jsonschema("vendor.github-workflows", broken).returncode == 1


def test_every_sarif_upload_has_security_events_write():
    for block in workflows():
        if "upload-sarif" in block:
            assert "security-events: write" in block


def test_diff_step_runs_only_after_the_check_found_something():
    (block, _) = workflows()
    diff_step = block[block.index("- id: lint"):]
    assert "if: failure() && steps.lint.outcome == 'failure'" in diff_step
    assert "--diff" in diff_step


def test_action_is_a_valid_composite_action():
    checked = check_jsonschema("vendor.github-actions", ROOT / "action.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr


# --- versions named in the docs -----------------------------------------------------------------

def test_docs_pin_the_current_version():
    """docs/releasing.md step 3: every `vX.Y.Z` users copy names the version being released."""
    tag = f"v{nnsight_lint.__version__}"
    for page in (ROOT / "README.md", DOCS / "pre-commit.md", DOCS / "ci.md"):
        named = set(re.findall(r"\bv\d+\.\d+\.\d+\b", page.read_text(encoding="utf-8")))
        assert named <= {tag}, f"{page.name} names {named - {tag}}; the package is {tag}"


# What users copy to pin nnsight-lint: `rev: REF` (pre-commit), `nnsight-lint/nnsight-lint@REF`
# (`uses:` of the action, a git URL for pip). A placeholder (`<sha>`, `vX.Y.Z`) is no ref.
PINS = re.compile(r"(?:\brev: |nnsight-lint/nnsight-lint@)([^\s\"'`)]+)")
NEEDS = {"rev": ".pre-commit-hooks.yaml", "uses": "action.yml", "pip": "pyproject.toml"}


def pinned_refs():
    for page in [ROOT / "README.md", ROOT / "action.yml", *sorted(DOCS.glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for match in PINS.finditer(text):
            ref = match.group(1)
            if "<" in ref or "X" in ref:
                continue
            line = text[text.rfind("\n", 0, match.start()) + 1 : text.find("\n", match.end())]
            kind = "rev" if match.group(0).startswith("rev") else "uses" if "uses:" in line else "pip"
            yield page.name, ref, kind


def test_every_pinned_ref_in_the_docs_resolves_in_the_repository():
    """Copying a snippet must work: each `rev:` / `@ref` names a tag or commit this repository has,
    holding the file that door needs."""
    if subprocess.run(["git", "rev-parse", "--git-dir"], cwd=ROOT, capture_output=True).returncode != 0:
        pytest.skip("not a git checkout (an sdist): nothing to resolve against")
    refs = list(pinned_refs())
    assert {kind for _, _, kind in refs} == {"rev", "uses", "pip"}, refs
    for page, ref, kind in refs:
        found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd=ROOT,
                               capture_output=True, text=True)
        assert found.returncode == 0, f"{page}: `{ref}` is no tag or commit of this repository"
        holds = subprocess.run(["git", "cat-file", "-e", f"{ref}:{NEEDS[kind]}"], cwd=ROOT, capture_output=True)
        assert holds.returncode == 0, f"{page}: `{ref}` has no {NEEDS[kind]}"


# --- the example and its model class ------------------------------------------------------------

def test_readme_and_editors_show_what_the_cli_prints_on_the_example():
    result = run_cli("check", "--no-cache", "examples/", cwd=ROOT)
    assert result.returncode == 1
    (line,) = result.stdout.splitlines()
    assert line in (ROOT / "README.md").read_text(encoding="utf-8")
    location = line.split(" NNL001")[0]  # examples/two_invokes.py:15:24:
    assert location in (DOCS / "editors.md").read_text(encoding="utf-8")


def test_example_uses_the_model_class_nnsight_recommends():
    assert "TransformersModel(" in (ROOT / "examples" / "two_invokes.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("construct", [
    'from nnsight import TransformersModel\nmodel = TransformersModel("gpt2", task="text-generation")\n',
    'from nnsight import LanguageModel\nmodel = LanguageModel("gpt2")\n',
])
def test_both_model_classes_lint_alike(construct, tmp_path):
    (tmp_path / "train.py").write_text(construct + TWO_INVOKES)
    result = run_cli("check", "--no-cache", "train.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("train.py:5:36: NNL001 [*]")


# --- problem matchers (docs/editors.md) ----------------------------------------------------------

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# notes"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
         "source": TWO_INVOKES.splitlines(keepends=True)},
    ],
    "metadata": {"kernelspec": {"language": "python", "name": "python3", "display_name": "Python 3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


@pytest.fixture(scope="module")
def cli_lines(tmp_path_factory) -> list[str]:
    project = tmp_path_factory.mktemp("matchers")
    (project / "train.py").write_text(TWO_INVOKES)
    (project / "nb.ipynb").write_text(json.dumps(NOTEBOOK))
    result = run_cli("check", "--no-cache", "-q", "train.py", "nb.ipynb", cwd=project)
    lines = result.stdout.splitlines()
    assert [line.split(" ")[0] for line in lines] == ["nb.ipynb:cell", "train.py:3:36:"], lines
    return lines


def test_vscode_problem_matchers_read_scripts_and_notebooks(cli_lines):
    (block,) = code_blocks(DOCS / "editors.md", "json")
    matchers = json.loads(block)["tasks"][0]["problemMatcher"]
    notebook_line, script_line = cli_lines

    def matches(line):
        found = []
        for matcher in matchers:
            pattern = matcher["pattern"]
            m = re.match(pattern["regexp"], line)  # these regexps mean the same in JavaScript
            if m:
                found.append({key: m.group(pattern[key]) for key in ("file", "line", "column", "code", "message") if key in pattern})
        return found

    assert matches(script_line) == [{"file": "train.py", "line": "3", "column": "36", "code": "NNL001", "message": script_line.split("[*] ", 1)[1]}]
    (notebook,) = matches(notebook_line)
    assert notebook["file"] == "nb.ipynb" and notebook["code"] == "NNL001"
    assert notebook["message"].startswith("cell 1:3:36: NNL001")


@pytest.mark.skipif(not (shutil.which("vim") or shutil.which("nvim")), reason="needs Vim or Neovim")
def test_vim_errorformat_reads_scripts_and_notebooks(cli_lines, tmp_path):
    (block,) = code_blocks(DOCS / "editors.md", "vim")
    efm = next(line for line in block.splitlines() if "errorformat" in line)
    output = tmp_path / "output.txt"
    output.write_text("\n".join(cli_lines) + "\n")
    result = tmp_path / "qf.json"
    script = tmp_path / "efm.vim"
    script.write_text(
        f"{efm}\ncgetfile {output}\n"
        "call writefile([json_encode(map(getqflist(), {_, e -> [bufname(e.bufnr), e.lnum, e.col, e.valid, e.text]}))], "
        f"'{result}')\nqa!\n"
    )
    vim = shutil.which("vim") or shutil.which("nvim")
    args = ["-es", "-N", "-u", "NONE", "-i", "NONE"] if vim.endswith("/vim") else ["--headless", "-u", "NONE", "-i", "NONE"]
    subprocess.run([vim, *args, "-S", str(script)], cwd=tmp_path, check=True, timeout=30, capture_output=True)
    notebook, script_entry = json.loads(result.read_text())
    assert script_entry[:4] == ["train.py", 3, 36, 1] and script_entry[4].startswith("NNL001 [*]")
    assert notebook[0] == "nb.ipynb" and notebook[3] == 1
    assert notebook[4].startswith("cell 1:3:36: NNL001")


# --- every ```python block of the docs that is a program runs on real nnsight ------------------------

NOT_A_PROGRAM = "<!-- not a program -->"  # on the line right before a ```python fence: a fragment
PAGES = [ROOT / "README.md", ROOT / "rules" / "README.md", *sorted(DOCS.rglob("*.md"))]


def python_blocks():
    """(page, line, code, is a program) of every ```python block."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^( *)```python\n(.*?)^\1```", text, flags=re.S | re.M):
            line = text.count("\n", 0, match.start()) + 1
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
            yield page, line, match.group(2), before != NOT_A_PROGRAM


BLOCKS = list(python_blocks())


def test_the_docs_have_python_blocks_and_fragments_are_few():
    assert len(BLOCKS) > 40
    assert sum(not program for *_, program in BLOCKS) <= 2


@pytest.fixture(scope="module")
def model():
    from tests.tiny_model import tiny_model

    return tiny_model()


# Pages whose programs cannot run here yet: none now; no new page goes here.
NOT_YET_RUN = frozenset()

# A hub model a page loads by id, and its stand-in: the tiny GPT-2 with the real model's layer
# count (a page's layer indices and counts are the real model's: `h[5]`, "12 layers"). Every
# snippet of a page that names it runs with `model` bound to the stand-in, and its construction
# replaced by it; the linter reads the snippet as written (the id). The construction itself is not
# run: nnsight 0.8.1 with transformers 5.24 builds no tokenizer for `LanguageModel(id)` without
# `tokenizer=` (the pipeline's task table holds class names, which nnsight reads as "no
# tokenizer needed"), and there is no hub here.
STAND_INS = {'LanguageModel("openai-community/gpt2")': 12}
HUB_ID = '"openai-community/gpt2"'  # any other load by id (a tokenizer, `tokenizer=` given): from a directory


@pytest.fixture(scope="module")
def hub_dir(tmp_path_factory) -> Path:
    """The tiny GPT-2 and its tokenizer saved with `save_pretrained`: what a page's other
    `"openai-community/gpt2"` loads (lazily, onto the meta device, as from the hub)."""
    from tests.tiny_model import tiny_model

    directory = tmp_path_factory.mktemp("hub") / "gpt2"
    tiny_model()._module.save_pretrained(directory)
    tiny_model().tokenizer.save_pretrained(directory)
    return directory


def as_run_here(code: str, hub: Path) -> str:
    """The program as it runs offline: the hub id loads from `hub`, and `remote=True` builds the
    same request nnsight sends NDIF and runs it here (`remote="local"`)."""
    return code.replace(HUB_ID, repr(str(hub))).replace("remote=True", 'remote="local"')


@pytest.mark.parametrize("page,line,code", [(p, n, c) for p, n, c, program in BLOCKS
                                            if program and p.name not in NOT_YET_RUN],
                         ids=lambda v: v.name if isinstance(v, Path) else str(v) if isinstance(v, int) else "")
def test_docs_program_runs_as_the_page_says(page, line, code, model, hub_dir, tmp_path, monkeypatch):
    """Code the linter finds nothing in runs clean on nnsight; code it reports either runs (a silent
    wrong value) or fails with an error the page names: never with an error of the snippet itself
    (a missing import or name, a shape that does not fit)."""
    from nnsight_lint.engine.lint import lint_source
    from tests.case_runner import run_case
    from tests.tiny_model import tiny_model

    monkeypatch.chdir(tmp_path)  # a program may write files
    path = tmp_path / f"{page.stem}_{line}.py"  # a real file: nnsight reads a trace's source back
    findings = [d for d in lint_source(code, str(path)) if d.code != "NNL000"]
    text, runnable = page.read_text(encoding="utf-8"), code
    for construction, layers in STAND_INS.items():
        if construction in text:
            model, runnable = tiny_model(layers), code.replace(construction, "model")
    path.write_text(as_run_here(runnable, hub_dir), encoding="utf-8")
    try:
        run_case(path, model)
    except Exception as error:
        named = type(error).__name__ in page.read_text(encoding="utf-8")
        assert findings and named, f"{page.name}:{line}: {type(error).__name__}: {error} (findings: {findings})"


def test_configuration_names_the_release_nnl301_says_removed_value():
    """One fact, one version: the release that made `.value` on a saved name an AttributeError."""
    from nnsight_lint import rules

    row = next(line for line in rules.explanation("NNL301").splitlines() if line.startswith("| `saved.value`"))
    gone = re.match(r"\| [^|]+\| (\d+\.\d+)", row).group(1)
    text = " ".join((DOCS / "configuration.md").read_text(encoding="utf-8").split())
    claim = re.search(r"`saved\.value` after a trace is the API before (\d+\.\d+) and an AttributeError from (\d+\.\d+) on", text)
    assert claim and claim.groups() == (gone, gone)


# --- the action's own steps, run by bash as a runner runs them ---------------------------------------


def action_steps() -> list[str]:
    import yaml

    return [step["run"] for step in yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]]


@pytest.fixture
def runner_temp(tmp_path):
    """$RUNNER_TEMP with the virtualenv the install step leaves: this checkout's nnsight-lint."""
    venv = tmp_path / "runner" / "nnsight-lint-venv" / "bin"
    venv.mkdir(parents=True)
    for tool in ("python", "nnsight-lint"):
        (venv / tool).symlink_to(Path(sys.executable).parent / tool)
    (venv.parent / ".installed-from").write_text(str(ROOT))
    return venv.parent.parent


def run_step(script: str, cwd: Path, **env) -> subprocess.CompletedProcess:
    import os

    return subprocess.run(["bash", "-e", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "GITHUB_ACTION_PATH": str(ROOT), **env})


def test_a_second_use_of_the_action_reuses_its_virtualenv(runner_temp, tmp_path):
    install, _ = action_steps()
    again = run_step(install, tmp_path, RUNNER_TEMP=str(runner_temp), PYTHON="/bin/false")  # would fail to build
    assert again.returncode == 0 and "already installed" in again.stdout, again.stderr
    (runner_temp / "nnsight-lint-venv" / ".installed-from").write_text("/another/ref")
    other = run_step(install, tmp_path, RUNNER_TEMP=str(runner_temp), PYTHON="/bin/false")
    assert other.returncode != 0  # another ref: it builds (here with an interpreter that fails)


def test_action_args_keep_quoted_paths_and_the_default_format(runner_temp, tmp_path):
    _, check = action_steps()
    (tmp_path / "my dir").mkdir()
    (tmp_path / "my dir" / "train.py").write_text(TWO_INVOKES, encoding="utf-8")
    env = dict(RUNNER_TEMP=str(runner_temp), OUTPUT_FORMAT="github", OUTPUT_FILE="")
    annotated = run_step(check, tmp_path, ARGS='--no-cache "my dir/train.py"', **env)
    assert annotated.returncode == 1, annotated.stderr
    assert annotated.stdout.startswith("::error file=my dir/train.py,line=3,col=36,"), annotated.stdout
    sarif = run_step(check, tmp_path, ARGS="--no-cache --exit-zero --output-format sarif '*'", **env)
    assert (sarif.returncode, sarif.stdout) == (2, ""), sarif.stderr  # no glob expansion: `*` is no file
    assert sarif.stderr.startswith("nnsight-lint: error: *: "), sarif.stderr
    logged = run_step(check, tmp_path, ARGS='--no-cache --exit-zero "my dir"', **{**env, "OUTPUT_FORMAT": "sarif",
                                                                                    "OUTPUT_FILE": "out.sarif"})
    assert logged.returncode == 0, logged.stderr
    assert json.loads((tmp_path / "out.sarif").read_text())["runs"][0]["results"][0]["ruleId"] == "NNL001"
