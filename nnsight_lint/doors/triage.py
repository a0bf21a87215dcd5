"""Which files a run must parse: each file's cache entry, its bytes and the pre-filter's verdict.

Over a large tree that is not nnsight code (the transformers source: 2,900 files, none of them
passes the pre-filter) this is the whole run, and it is reading and searching bytes, one core's
work. So from `SPLIT_AT` files on, one forked child looks at the second half of the files while
this process looks at the first, as ruff spreads its files over the cores.

Looking changes nothing; what changes state (a cache entry kept or refreshed) is settled here, in
path order, so a run with a child is the run without one. A file the pre-filter passes is not sent
back but looked at again here: it is about to be parsed, which costs a thousand reads. A child
that fails or dies leaves its half to this process.
"""
from __future__ import annotations

import marshal
import os
import threading
from typing import Callable, List, NamedTuple, Optional, Sequence, Tuple

from nnsight_lint.doors.api import FileResult, read_with_stat
from nnsight_lint.engine.lint import Screen, could_have_findings
from nnsight_lint.sources.cache import Cache, content_hash
from nnsight_lint.sources.discovery import NOTEBOOK_SUFFIXES

# From this many files, a child halves the looking: a fork and its answer cost a few milliseconds,
# the looking about 0.06 ms a file (benchmarks/RESULTS.md, seventh session).
SPLIT_AT = 400

# What looking at one file found:
#   (HIT, diagnostics, hidden)               the cache knew the file by its status
#   (FAILED, why)                            it could not be read
#   (READ, data, digest, status, passes)     `passes`: the pre-filter lets it through (then `data`
#                                            holds its bytes, else None)
HIT, FAILED, READ = "hit", "failed", "read"
Look = Tuple


def look(path: str, screen: Screen, cache: Optional[Cache]) -> Look:
    """What `path` holds for a run whose pre-filter takes `screen` (the file's options, or what
    the pre-filter needs of them) and whose cache is `cache`; changes nothing."""
    cached = cache.lookup_by_stat(path) if cache else None
    if cached is not None:
        return HIT, cached, cache.hidden(path)
    data, status, error = read_with_stat(path)
    if error is not None:
        return FAILED, error
    if status is not None and status.st_size != len(data):
        status = None  # a file whose size says nothing of its content (/proc): no status key
    digest = content_hash(data) if cache else None
    # A notebook always passes: its JSON is cheap to check, and invalid JSON is NNL000.
    passes = path.endswith(NOTEBOOK_SUFFIXES) or could_have_findings(data, screen)
    return READ, data if passes else None, digest, status, passes  # bytes are kept only to be parsed


def look_at_all(paths: Sequence[str], prepared: Callable[[str], Tuple[Screen, Optional[Cache]]],
                jobs: int) -> List[Look]:
    """`look` at each path (with what `prepared` gives for it), in order; from `SPLIT_AT` paths
    and with `jobs` > 1, half in a child."""
    def looked(path: str) -> Look:
        return look(path, *prepared(path))

    if jobs < 2 or len(paths) < SPLIT_AT or not _can_fork():
        return [looked(path) for path in paths]
    half = len(paths) // 2
    theirs = _in_child(looked, paths[half:])
    mine = [looked(path) for path in paths[:half]]
    answered = theirs()
    if answered is None:  # the child failed: its half is looked at here
        return mine + [looked(path) for path in paths[half:]]
    # A file the pre-filter passes comes back as None: its bytes are read again here.
    return mine + [looked(path) if each is None else _arrived(each) for path, each in zip(paths[half:], answered)]


def _in_child(looked: Callable[[str], Look], paths: Sequence[str]) -> Callable[[], Optional[list]]:
    """Starts a child that looks at `paths`; the function returned waits for its answers (None:
    it gave none)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, then leave without running the parent's exit handlers
        status = 1
        try:
            os.close(reader)
            answers = []
            for path in paths:
                each = looked(path)
                if each[0] == READ:  # bytes to parse stay here; a status travels as what the cache keeps of it
                    each = None if each[4] else (READ, None, each[2], _Status.sent(each[3]), False)
                answers.append(each)
            with os.fdopen(writer, "wb") as stream:
                stream.write(_packed(answers))
            status = 0
        finally:
            os._exit(status)
    os.close(writer)

    def answers() -> Optional[list]:
        with os.fdopen(reader, "rb") as stream:
            payload = stream.read()
        _, status = os.waitpid(pid, 0)
        try:
            answered = _unpacked(payload) if status == 0 else None
        except Exception:  # half an answer
            return None
        return answered if isinstance(answered, list) and len(answered) == len(paths) else None

    return answers


def _packed(answers: list) -> bytes:
    """Plain answers go as `marshal` (built in); findings from the cache need `pickle`, which costs
    more to import than the whole answer of a run without findings to send."""
    if any(each is not None and each[0] == HIT and each[1] for each in answers):
        import pickle

        return b"p" + pickle.dumps(answers, pickle.HIGHEST_PROTOCOL)
    return b"m" + marshal.dumps(answers)


def _unpacked(payload: bytes) -> list:
    if payload[:1] == b"p":
        import pickle

        return pickle.loads(payload[1:])
    return marshal.loads(payload[1:]) if payload[:1] == b"m" else None


class _Status(NamedTuple):
    """What the cache keeps of a file's `os.stat_result`, sent as a plain tuple (marshal sends no
    other kind; a stat result costs ten times as much to pickle)."""
    st_size: int
    st_mtime_ns: int
    st_ino: int

    @staticmethod
    def sent(status: Optional[os.stat_result]) -> Optional[Tuple[int, int, int]]:
        return None if status is None else (status.st_size, status.st_mtime_ns, status.st_ino)


def _arrived(found: Look) -> Look:
    if found[0] == READ and found[3] is not None:
        return found[:3] + (_Status(*found[3]),) + found[4:]
    return found


def _can_fork() -> bool:
    """A fork copies this process as it is: only with no other thread running (one could hold a
    lock the child would then wait on forever)."""
    return hasattr(os, "fork") and threading.active_count() == 1


def settle(path: str, found: Look, cache: Optional[Cache]):
    """The file's result when looking answered for it, else (data, digest, status) to parse; keeps
    or refreshes its cache entry."""
    if found[0] == HIT:
        return FileResult(path, found[1], hidden=found[2])
    if found[0] == FAILED:
        return FileResult(path, error=found[1])
    _, data, digest, status, passes = found
    cached = cache.lookup_by_content(path, digest, status) if cache else None
    if cached is not None:
        return FileResult(path, cached, hidden=cache.hidden(path))
    if passes:
        return data, digest, status
    if cache:
        cache.store(path, digest, [], status)
    return FileResult(path, [])
