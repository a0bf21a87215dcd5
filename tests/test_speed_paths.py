"""The fast paths change nothing but speed: parallel output equals serial output, a warm cache
equals a cold run, bad caches are ignored, and runs that parse nothing never import libcst."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import run_cli

ROOT = Path(__file__).resolve().parent.parent



@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    directory = tmp_path_factory.mktemp("corpus")
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gen_corpus.py"), str(directory), "--files", "24"],
                   check=True)
    (directory / "plain.py").write_text("def f(:\n", encoding="utf-8")  # pre-filtered: never parsed
    return directory


def test_parallel_output_equals_serial(corpus):
    serial = run_cli("check", "--no-cache", "--jobs", "1", ".", cwd=corpus)
    parallel = run_cli("check", "--no-cache", "--jobs", "2", ".", cwd=corpus)
    assert serial.returncode == parallel.returncode == 1
    assert serial.stdout.count("NNL001") >= 24
    assert parallel.stdout == serial.stdout
    assert not (corpus / ".nnsight_lint_cache").exists()  # --no-cache writes nothing


def test_warm_cache_equals_cold_and_follows_edits(corpus, tmp_path):
    cache = tmp_path / "cache"
    cold = run_cli("check", "--cache-dir", str(cache), ".", cwd=corpus)
    assert (cache / ".gitignore").read_text().strip().endswith("*")
    warm = run_cli("check", "--cache-dir", str(cache), ".", cwd=corpus)
    assert (warm.returncode, warm.stdout) == (cold.returncode, cold.stdout)
    # An edited file is checked again: fix it, and its findings disappear from the cached run.
    fixed = run_cli("check", "--no-cache", "--fix", "experiment_0000.py", cwd=corpus)
    assert fixed.returncode == 0
    after = run_cli("check", "--cache-dir", str(cache), ".", cwd=corpus)
    assert "experiment_0000.py" in cold.stdout and "experiment_0000.py" not in after.stdout
    assert after.stdout == run_cli("check", "--no-cache", ".", cwd=corpus).stdout


def test_a_warm_run_answers_from_the_cache(tmp_path):
    """The next run reads what the last one stored (not merely the same findings linted again):
    a message changed in the index comes back from it, for a file found by its status and for one
    found by its content (a file written just now has no trusted status)."""
    source = "import torch\nfrom nnsight import LanguageModel\nmodel = LanguageModel('gpt2')\n"
    source += "with model.trace('a'):\n    h = model.transformer.h[0].output\nprint(h)\n"
    (tmp_path / "a.py").write_text(source, encoding="utf-8")
    cache = tmp_path / "cache"
    cold = run_cli("check", "--cache-dir", str(cache), "a.py", cwd=tmp_path)
    assert "NNL101" in cold.stdout
    [index] = cache.glob("index-*.json")
    data = json.loads(index.read_text())
    [entry] = data["files"].values()
    entry[2][0][1] = "the message the cache holds"
    index.write_text(json.dumps(data))
    warm = run_cli("check", "--cache-dir", str(cache), "a.py", cwd=tmp_path)
    assert "the message the cache holds" in warm.stdout, warm.stdout + warm.stderr


@pytest.mark.parametrize("garbage", ["{not json", json.dumps({"format": 1, "version": "0.0.0", "files": {}}),
                                     json.dumps({"format": 1, "version": "x", "files": {"a": 5}}), "[]"])
def test_corrupt_or_foreign_cache_is_ignored(corpus, tmp_path, garbage):
    cache = tmp_path / "cache"
    expected = run_cli("check", "--cache-dir", str(cache), ".", cwd=corpus).stdout
    for index in cache.glob("index-*.json"):
        index.write_text(garbage, encoding="utf-8")
    result = run_cli("check", "--cache-dir", str(cache), ".", cwd=corpus)
    assert "Traceback" not in result.stderr
    assert result.stdout == expected


def test_unwritable_cache_only_costs_speed(corpus, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = run_cli("check", "--cache-dir", str(blocker / "cache"), ".", cwd=corpus)
    assert result.returncode == 1 and "Traceback" not in result.stderr


def test_runs_that_parse_nothing_do_not_import_libcst(tmp_path):
    (tmp_path / "plain.py").write_text("import torch\nx = torch.ones(2)\n", encoding="utf-8")
    probe = (
        "import sys, nnsight_lint.doors.cli as cli\n"
        "code = cli.main(sys.argv[1:])\n"
        "print(code, 'libcst' in sys.modules)\n"
    )
    for args in (["--version"], ["check", "--no-cache", str(tmp_path)]):
        result = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, cwd=ROOT)
        assert result.stdout.strip().splitlines()[-1].endswith("False"), (args, result.stdout, result.stderr)


def test_only_the_files_to_lint_have_their_target_versions_decided(tmp_path):
    """Deciding a directory's nnsight and transformers reads its project files and those above
    it: a walk does it only for the directories of files the pre-filter passes."""
    (tmp_path / "plain" / "sub").mkdir(parents=True)
    (tmp_path / "plain" / "a.py").write_text("import torch\n", encoding="utf-8")
    (tmp_path / "plain" / "sub" / "b.py").write_text("def generate(x):\n    return x\n", encoding="utf-8")
    (tmp_path / "nn").mkdir()
    (tmp_path / "nn" / "requirements.txt").write_text("nnsight==0.4.3\n", encoding="utf-8")
    (tmp_path / "nn" / "c.py").write_text(
        "import nnsight\nmodel = nnsight.LanguageModel('gpt2')\n"
        "with model.trace('a'):\n    h = nnsight.save(model.transformer.h[0].output)\n", encoding="utf-8")
    probe = (
        "import sys\n"
        "from nnsight_lint.sources import config\n"
        "asked, decide_in = set(), config.decide_in\n"
        "config.decide_in = lambda directory, package, memo: asked.add(directory) or decide_in(directory, package, memo)\n"
        "import nnsight_lint.doors.cli as cli\n"
        "code = cli.main(sys.argv[1:])\n"
        "print(code, sorted(asked))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe, "check", "--no-cache", str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT)
    code, asked = result.stdout.strip().splitlines()[-1].split(" ", 1)
    assert code == "1" and "NNL302" in result.stdout, result.stdout + result.stderr  # 0.4 has no nnsight.save
    assert str(tmp_path / "nn") in asked and str(tmp_path / "plain") not in asked, asked


def test_chunks_hold_every_file_once_the_largest_first():
    from nnsight_lint.doors.runner import _chunks

    sizes = [5, 900, 40, 40, 7000, 1, 300, 300, 2]
    chunks = _chunks(sizes, workers=2)
    order = [i for chunk in chunks for i in chunk]
    assert sorted(order) == list(range(len(sizes)))
    assert [sizes[i] for i in order] == sorted(sizes, reverse=True)
    assert chunks[0] == [4]  # a file larger than a chunk's share is a chunk of its own
    assert len(chunks[-1]) > 1  # the small files at the end share chunks


def test_no_collection_runs_while_a_file_is_linted_and_its_cycles_are_freed_after(corpus):
    import gc

    from nnsight_lint.doors.api import lint_text

    source = next(corpus.glob("*.py")).read_bytes()
    lint_text(source, "warm.py")
    started = []

    def count(phase, info):
        if phase == "start":
            started.append(info["generation"])

    gc.collect()
    gc.callbacks.append(count)
    try:
        assert lint_text(source, "one.py").diagnostics
        # Without the pause, collections run as the lint allocates (three or four for this file);
        # with it, one starts once the collector is on again.
        assert len(started) <= 1 and gc.isenabled()
        assert gc.collect() < 1000  # the cycles the lint left went in the first collection after it
        gc.disable()
        lint_text(source, "two.py")
        assert not gc.isenabled()  # a collector turned off stays off
    finally:
        gc.enable()
        gc.callbacks.remove(count)


def test_a_lint_leaves_no_cycles_for_the_collector(corpus):
    """The model lets go of its cycles when the rules are done (`FileModel.release`) and the API
    walker keeps no bound methods: the tree and the model are freed by reference counting. Left
    to the collector, each lint's 300,000-node piece of a huge file cost 0.3 s to scan."""
    import gc

    from nnsight_lint.doors.api import lint_text

    source = next(corpus.glob("*.py")).read_bytes()
    lint_text(source, "warm.py")
    gc.collect()
    gc.disable()
    try:
        assert lint_text(source, "one.py").diagnostics
        left = gc.collect()
    finally:
        gc.enable()
    assert left < 100  # a few closures of the knowledge tables; was 2,700 objects, the tree's among them
