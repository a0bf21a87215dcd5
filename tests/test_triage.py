"""A large run's looking (cache, reading, pre-filter) is halved with a forked child: the results and
the cache it keeps are those of one process, and a child that dies costs only time."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nnsight_lint.doors import triage
from nnsight_lint.doors.runner import check_paths
from nnsight_lint.sources.cache import Cache

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the child is forked")

_forks = []
if hasattr(os, "fork"):
    os.register_at_fork(after_in_parent=lambda: _forks.append(1))


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """SPLIT_AT files that are not nnsight code, then (in the child's half) what each kind of
    answer comes from: files with findings, a notebook, a file that cannot be read."""
    directory = tmp_path_factory.mktemp("tree")
    plain = [directory / f"plain_{i:04d}.py" for i in range(triage.SPLIT_AT)]
    for i, path in enumerate(plain):
        path.write_text(f"def f{i}(x):\n    return x.generate() + {i}\n", encoding="utf-8")
    generated = directory / "nnsight"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gen_corpus.py"), str(generated), "--files", "3"],
                   check=True)
    notebook = directory / "plain.ipynb"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "source": ["x = 1\n"],
                                               "outputs": [], "execution_count": None}],
                                    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    fifo = directory / "a_fifo.py"
    os.mkfifo(fifo)
    paths = [str(p) for p in plain] + sorted(str(p) for p in generated.glob("*.py")) + [str(notebook), str(fifo)]
    an_hour_ago = time.time() - 3600  # statuses old enough for the cache to trust: a warm run hits by status
    for path in paths[:-1]:
        os.utime(path, (an_hour_ago, an_hour_ago))
    return directory, paths


@pytest.fixture
def looked_here(monkeypatch):
    """The paths `triage.look` looked at in this process (not in a child)."""
    parent, here, look = os.getpid(), [], triage.look

    def recorded(path, screen, cache):
        if os.getpid() == parent:
            here.append(path)
        return look(path, screen, cache)

    monkeypatch.setattr(triage, "look", recorded)
    return here


def _run(paths, jobs, cache_dir=None):
    if jobs > 1 and not triage._can_fork():
        pytest.skip("another thread runs in this process (an earlier test's): no child is forked")
    cache = Cache(str(cache_dir), "test") if cache_dir else None
    _forks.clear()
    results = check_paths(paths, jobs=jobs, cache=cache)
    return results, len(_forks)


def _entries(cache_dir):
    [index] = Path(cache_dir).glob("index-*.json")
    # What the bundled tables' reads record depends on which process loaded them first.
    return {path: entry[:4] for path, entry in json.loads(index.read_text())["files"].items()}


def test_a_split_run_equals_one_process(tree, looked_here):
    _, paths = tree
    alone, forks_alone = _run(paths, jobs=1)
    looked_here.clear()
    split, forks_split = _run(paths, jobs=2)
    assert (forks_alone, forks_split) == (0, 1)  # three files to parse: no worker pool, only the child
    assert split == alone
    # The child's answers were used: here, only this half and the files to parse were looked at.
    half = len(paths) // 2
    assert looked_here == paths[:half] + [p for p in paths[half:] if "nnsight" in p or p.endswith(".ipynb")]
    found = {Path(r.path).name: r for r in split}
    assert sum(len(r.diagnostics) for r in split if "nnsight" in r.path) >= 3
    assert found["a_fifo.py"].error and not found["plain.ipynb"].error


def test_a_split_run_keeps_the_cache_one_process_keeps(tree, tmp_path, looked_here):
    _, paths = tree
    runs = {}
    for jobs in (1, 2):
        cache_dir = tmp_path / f"cache-{jobs}"
        cold, _ = _run(paths, jobs, cache_dir)
        cold_entries = _entries(cache_dir)
        looked_here.clear()
        warm, _ = _run(paths, jobs, cache_dir)
        runs[jobs] = (_shown(cold), _shown(warm), cold_entries, _entries(cache_dir))
    assert len(looked_here) == len(paths) // 2  # the warm split run: the child answered from the cache
    assert runs[2] == runs[1]
    cold, warm, entries, _ = runs[2]
    assert warm == cold and len(entries) == len(paths) - 1  # every file but the FIFO


def _shown(results):
    return [(r.path, r.diagnostics, r.error, r.hidden) for r in results]


def test_a_child_that_dies_leaves_its_half_here(tree, monkeypatch):
    _, paths = tree
    alone, _ = _run(paths, jobs=1)
    parent = os.getpid()
    looked_here = []

    def look(path, screen, cache):
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        looked_here.append(path)
        return triage_look(path, screen, cache)

    triage_look = triage.look
    monkeypatch.setattr(triage, "look", look)
    split, forks = _run(paths, jobs=2)
    assert forks == 1 and split == alone
    assert sorted(looked_here) == sorted(paths)


def test_fewer_files_are_looked_at_in_one_process(tree):
    _, paths = tree
    few = paths[: triage.SPLIT_AT - 1]
    results, forks = _run(few, jobs=2)
    assert forks == 0 and len(results) == len(few)
