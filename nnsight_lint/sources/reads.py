"""What the lint of one file read besides the file itself: the `conftest.py` files and project
modules model resolution followed, a `config.json` from a local path, the Hugging Face cache or the
`[tool.nnsight-lint.models]` setting, and the places it looked for one and found nothing (a
`conftest.py` or a config that appears later changes the findings too).

`recording()` collects, while its block runs, `{path: state}` for every `note(path)`; a state is
the path's `[size, mtime_ns, inode]`, None when nothing is there, or `RACY` when it was modified so
recently that a second write in the same mtime tick could follow unseen. `unchanged(reads)` says
whether every path still has the state it was read with (a `RACY` one never has). The result
cache keys a file's findings by these as well as by its own content (`cache.py`), and the
in-process tables that keep what a config said (`analysis/schemas.py`) check them before reuse.
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager
from typing import Dict, Iterable, List, Optional, Tuple, Union

# Coarser than any file system's mtime resolution (FAT: 2 s): a file modified later than this
# before it was read may be written again without its mtime changing.
RACY_NS = 2_000_000_000
RACY = "racy"

State = Union[None, str, List[int]]
Reads = Tuple[Tuple[str, State], ...]

_RECORDERS: List[Dict[str, State]] = []


@contextmanager
def recording():
    """`{path: state}` of what `note` hears of while the block runs (nested blocks both hear it)."""
    collected: Dict[str, State] = {}
    _RECORDERS.append(collected)
    try:
        yield collected
    finally:
        _RECORDERS.remove(collected)


def note(path: str, status: Optional[os.stat_result] = None) -> None:
    """`path` was read (or looked for). Call it BEFORE reading, with the status the read will see
    when the caller has one: a change between the two then shows as a changed state, never as a
    stale one."""
    if not _RECORDERS:
        return
    path = os.path.abspath(path)
    value = _state(path, status)
    for collected in _RECORDERS:
        collected.setdefault(path, value)


def replay(reads: Iterable[Tuple[str, State]]) -> None:
    """Tell the open recorders of reads made earlier (an in-process table reused)."""
    for collected in _RECORDERS:
        for path, value in reads:
            collected.setdefault(path, value)


def frozen(collected: Dict[str, State]) -> Reads:
    return tuple(sorted(collected.items()))


def unchanged(reads: Iterable[Tuple[str, State]]) -> bool:
    """Does every path read still have the state it was read with?"""
    return all(value != RACY and _state(path) == value for path, value in reads)


def _state(path: str, status: Optional[os.stat_result] = None) -> State:
    if status is None:
        try:
            status = os.stat(path)
        except OSError:
            return None
    if status.st_mtime_ns >= time.time_ns() - RACY_NS:
        return RACY
    return [status.st_size, status.st_mtime_ns, status.st_ino]


def well_formed(reads: object) -> bool:
    """[[path, state], ...] as an index file holds it."""
    if not isinstance(reads, list):
        return False
    for item in reads:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            return False
        value = item[1]
        if not (value is None or value == RACY
                or (isinstance(value, list) and len(value) == 3 and all(type(n) is int for n in value))):
            return False
    return True
