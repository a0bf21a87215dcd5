"""The result cache is keyed by what a file's lint read besides the file (issue 19): a `conftest.py`
whose fixture builds the model, one that appears later, a `config.json` in the Hugging Face cache.
Real files, the real CLI, one cache directory across runs."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from nnsight_lint.sources.cache import CACHE_DIR_NAME, Cache, content_hash
from tests.support import run_cli

TIMEOUT = 60

TEST = '''\
def test_first_layer(model):
    with model.trace("hello"):
        hidden = model.transformer.h[0].output.save()
'''

CONFTEST = '''\
import pytest
from nnsight import LanguageModel


@pytest.fixture
def model():
    return LanguageModel("{id}")
'''


def backdate(*paths: Path) -> None:
    """Older than the racy window, so that the cache may trust the files' status."""
    past = time.time_ns() - 3600 * 10**9
    for path in paths:
        os.utime(path, ns=(past, past))


def check(root: Path, *extra: str):
    result = run_cli("check", "--select", "NNL4", "--cache-dir", str(root / CACHE_DIR_NAME), *extra, "tests",
                     cwd=root, timeout=TIMEOUT)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def codes(result) -> list:
    return [line.split(": ")[1].split()[0] for line in result.stdout.splitlines() if ": NNL" in line]


def project(tmp_path: Path) -> Path:
    (tmp_path / "tests").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'probe'\n")
    (tmp_path / "tests" / "test_model.py").write_text(TEST)
    return tmp_path


def entry(root: Path) -> list:
    [index] = (root / CACHE_DIR_NAME).glob("index-*.json")
    [found] = [e for path, e in json.loads(index.read_text())["files"].items() if path.endswith("test_model.py")]
    return found


def test_a_changed_conftest_changes_the_findings_of_a_cached_file(tmp_path):
    root = project(tmp_path)
    conftest, test = root / "tests" / "conftest.py", root / "tests" / "test_model.py"
    conftest.write_text(CONFTEST.format(id="meta-llama/Llama-3.2-1B"))  # a Llama has no `transformer.h`
    backdate(conftest, test, root / "pyproject.toml")
    assert codes(check(root)) == ["NNL401"]
    read = dict(map(tuple, entry(root)[4]))
    assert read[str(conftest)] is not None and read[str(conftest)] != "racy"

    # Unchanged, the entry is used: the test file rewritten behind the cache's back (same size,
    # mtime and inode) still gives the stored findings.
    status = test.stat()
    test.write_text(TEST.replace("h[0]", "h[1]"))
    os.utime(test, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert codes(check(root)) == ["NNL401"]
    test.write_text(TEST)
    backdate(test)

    conftest.write_text(CONFTEST.format(id="openai-community/gpt2"))  # GPT-2 has it
    backdate(conftest)
    assert codes(check(root)) == [] == codes(check(root, "--no-cache"))


def test_a_conftest_that_appears_later_is_read(tmp_path):
    root = project(tmp_path)
    backdate(root / "tests" / "test_model.py", root / "pyproject.toml")
    assert codes(check(root)) == []  # `model` is nobody's fixture yet: unknown, silent
    conftest = root / "conftest.py"
    conftest.write_text(CONFTEST.format(id="Qwen/Qwen3-0.6B"))
    backdate(conftest)
    assert codes(check(root)) == ["NNL401"]


def test_a_config_in_the_hugging_face_cache_that_changes_changes_the_findings(tmp_path, monkeypatch):
    root = project(tmp_path / "project")
    (root / "tests" / "test_model.py").write_text(
        'from nnsight import LanguageModel\n\nmodel = LanguageModel("my-org/tiny")\n'
        'with model.trace("hello"):\n    hidden = model.model.layers[3].output.save()\n')
    snapshot = tmp_path / "hub" / "models--my-org--tiny" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    (tmp_path / "hub" / "models--my-org--tiny" / "refs").mkdir()
    (tmp_path / "hub" / "models--my-org--tiny" / "refs" / "main").write_text("abc")
    config = snapshot / "config.json"
    llama = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2,
             "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100}
    config.write_text(json.dumps(llama))
    every = [root / "tests" / "test_model.py", root / "pyproject.toml", *(tmp_path / "hub").rglob("*")]
    backdate(*every)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    assert codes(check(root)) == ["NNL402"]  # layers[3] on 2 layers
    config.write_text(json.dumps({**llama, "num_hidden_layers": 8}))
    backdate(config)
    assert codes(check(root)) == []


def test_an_entry_a_run_saved_is_found_by_the_next(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    backdate(path)
    cache = Cache(str(tmp_path / "cache"), "settings")
    cache.store(str(path), content_hash(path.read_bytes()), [], path.stat(), read=((str(tmp_path / "gone"), None),))
    cache.save()
    assert Cache(str(tmp_path / "cache"), "settings").lookup_by_stat(str(path)) == []
    (tmp_path / "gone").write_text("now here")
    assert Cache(str(tmp_path / "cache"), "settings").lookup_by_stat(str(path)) is None


def test_the_bundled_tables_are_not_a_read_an_entry_depends_on(tmp_path):
    """They come with the linter, whose version keys the cache; read once per process, they would
    be noted by whichever file's lint loaded them first, so the same run would keep different
    entries from one time to the next."""
    root = project(tmp_path)
    (root / "tests" / "conftest.py").write_text(CONFTEST.format(id="gpt2"))
    for i in range(8):
        (root / "tests" / f"test_more_{i}.py").write_text(TEST)
    (root / "tests" / "test_wrong.py").write_text(TEST.replace(".h[0]", ".hh[0]"))
    result = check(root)
    assert "NNL401" in result.stdout, result.stdout  # the tables were read: gpt2 has no `hh`
    [index] = (root / CACHE_DIR_NAME).glob("index-*.json")
    package = str(Path(__file__).resolve().parent.parent / "nnsight_lint")
    entries = json.loads(index.read_text())["files"]
    assert len(entries) >= 10
    assert all(not path.startswith(package) for each in entries.values() for path, _ in each[4])


def test_one_process_sees_a_changed_conftest(tmp_path):
    """The LSP lints in one long process: what it keeps of a config (analysis/schemas.py) and of a
    parsed conftest (analysis/project_files.py) is reused only while the files are as they were."""
    from nnsight_lint.doors.api import lint_text

    root = project(tmp_path)
    conftest, test = root / "tests" / "conftest.py", root / "tests" / "test_model.py"
    conftest.write_text(CONFTEST.format(id="meta-llama/Llama-3.2-1B"))
    backdate(conftest)
    first = lint_text(test.read_bytes(), str(test))
    assert [d.code for d in first.diagnostics] == ["NNL401"] and str(conftest) in dict(first.reads)
    conftest.write_text(CONFTEST.format(id="openai-community/gpt2"))
    backdate(conftest)
    assert [d.code for d in lint_text(test.read_bytes(), str(test)).diagnostics] == []
