"""The cache under faults (issue 25, items 12-13), built for real: an index somebody else wrote into,
and a disk that fills up while the index is written (a real small tmpfs when the test may mount
one, and a real file size limit, which makes write() fail with EFBIG, everywhere)."""
from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from nnsight_lint.sources.cache import CACHE_DIR_NAME, STALE_SECONDS
from tests.support import TWO_INVOKES, run_cli

TIMEOUT = 60
FINDING = "3:36: NNL001 [*]"


def tree(tmp_path: Path, files: int = 2) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    for n in range(files):
        (tmp_path / f"m{n}.py").write_text(TWO_INVOKES, encoding="utf-8")
    return tmp_path


def index_of(cache: Path) -> Path:
    [index] = cache.glob("index-*.json")
    return index


MALFORMED = [7, "x", [], ["x"], {}, [None, "digest"], [[1, 2, "3"], "d", []], [None, 5, []],
             [None, "d", [["NNL001", "m", "one", 1, 1, 1, None, None]]],
             [None, "d", [["NNL001", "m", 1, 1, 1, 1, [True, [[1, 1, 1, "x", ""]]], None]]]]


def test_a_malformed_entry_is_dropped_and_its_file_linted_again(tmp_path):
    """Each file's entry in a valid index replaced by something else (one malformation a file)."""
    root = tree(tmp_path, files=len(MALFORMED))
    uncached = run_cli("check", "--no-cache", ".", cwd=root, timeout=TIMEOUT)
    assert run_cli("check", ".", cwd=root, timeout=TIMEOUT).stdout == uncached.stdout
    index = index_of(root / CACHE_DIR_NAME)
    data = json.loads(index.read_text())
    assert len(data["files"]) == len(MALFORMED)
    for path, entry in zip(sorted(data["files"]), MALFORMED):
        data["files"][path] = entry
    index.write_text(json.dumps(data))
    for _ in range(2):  # the run that meets them, and the one after (the entries were written afresh)
        cached = run_cli("check", ".", cwd=root, timeout=TIMEOUT)
        assert "Traceback" not in cached.stderr, cached.stderr
        assert (cached.returncode, cached.stdout) == (uncached.returncode, uncached.stdout)
    assert not set(map(repr, json.loads(index.read_text())["files"].values())) & set(map(repr, MALFORMED))


def _limit_file_size(limit: int):
    def preexec():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # Python ignores SIGXFSZ: EFBIG

    return preexec


def _leftovers(cache: Path):
    return sorted(p.name for p in cache.iterdir() if p.name.endswith(".tmp"))


def test_a_write_that_fails_leaves_no_partial_index(tmp_path):
    """RLIMIT_FSIZE: the index (about 2 KB a file here) cannot be written in full; EFBIG."""
    root = tree(tmp_path, files=20)
    cache = root / CACHE_DIR_NAME
    for _ in range(3):
        done = run_cli("check", ".", cwd=root, timeout=TIMEOUT, preexec_fn=_limit_file_size(1024))
        assert done.returncode == 1 and FINDING in done.stdout and "Traceback" not in done.stderr, done.stderr
        assert _leftovers(cache) == []
    assert list(cache.glob("index-*.json")) == []  # never a half-written index either


@pytest.fixture
def small_disk(tmp_path):
    """A real 256 KiB tmpfs (root only; skipped where mounting is not allowed)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_full_disk_leaves_no_partial_index(tmp_path, small_disk):
    root = tree(tmp_path / "project", files=200)  # an index of about 250 KB: it cannot fit
    (small_disk / "filler").write_bytes(b"x" * 200 * 1024)
    cache = small_disk / "cache"
    for _ in range(2):
        done = run_cli("check", "--cache-dir", str(cache), ".", cwd=root, timeout=TIMEOUT)
        assert done.returncode == 1 and FINDING in done.stdout and "Traceback" not in done.stderr, done.stderr
        assert _leftovers(cache) == []


def test_stale_partial_indexes_are_swept_and_fresh_ones_kept(tmp_path):
    """A run killed mid-write leaves its temporary file; the next run that writes removes it once it
    is older than a minute (a younger one may be another run's, being written right now)."""
    root = tree(tmp_path)
    cache = root / CACHE_DIR_NAME
    cache.mkdir()
    stale, fresh = cache / "tmpkilledrun.tmp", cache / "tmpwritingnow.tmp"
    stale.write_text('{"format": 2, "ver')
    fresh.write_text('{"format": 2, "ver')
    old = time.time() - STALE_SECONDS - 5
    os.utime(stale, (old, old))
    done = run_cli("check", ".", cwd=root, timeout=TIMEOUT)
    assert FINDING in done.stdout
    assert _leftovers(cache) == ["tmpwritingnow.tmp"]
