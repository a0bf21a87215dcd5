"""A cache of findings keyed by file content, settings and tool version, so an unchanged file is
never parsed twice. `.nnsight_lint_cache/` holds one JSON index per (version, settings); a file is
a hit when its size, mtime and inode match the index (no read), or, failing that, its content hash
does. A corrupt, foreign or unwritable cache is ignored: the run just does the work.

An entry is keyed by what was read, never by what is on disk when it is stored: the status comes
from the open file before its bytes were read (api.read_with_stat). A status is not kept at all
when the file changed while it was read, or was modified so recently that a write in the same
mtime tick could follow unseen (git's "racy" files); such a file is hashed again next time.

An entry also holds what the lint of the file read besides it (`reads.py`: a `conftest.py`, a
project module, a `config.json`, and the places a config or fixture was looked for and was not):
it is a hit only while each of those still has the state it was read with.
"""
from __future__ import annotations

import json
import os
import time
from typing import Dict, List, Optional

try:  # hashlib.blake2b is this very function; importing hashlib also loads OpenSSL (~15 ms a start)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover  (a Python without the builtin module)
    from hashlib import blake2b

from nnsight_lint import __version__
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position
from nnsight_lint.sources import reads as _reads

CACHE_DIR_NAME = ".nnsight_lint_cache"
_FORMAT = 5  # 4: a finding keeps its story (`detail`); 5: an entry keeps the other files read
# A partial index file (`tmp*.tmp`) older than this was left by a run that died while writing it.
STALE_SECONDS = 60
_TEMPORARY_PREFIX = "tmp"


def content_hash(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


class Cache:
    def __init__(self, directory: str, settings_key: str) -> None:
        self.directory = directory
        digest = blake2b(f"{_FORMAT}|{__version__}|{settings_key}".encode(), digest_size=8).hexdigest()
        self._index_path = os.path.join(directory, f"index-{digest}.json")
        self._entries: Dict[str, list] = self._load()
        self._dirty = False

    def _load(self) -> Dict[str, list]:
        try:
            with open(self._index_path, encoding="utf-8") as handle:
                data = json.load(handle)
            if data.get("format") == _FORMAT and data.get("version") == __version__:
                # An entry that is not of our shape (hand-edited, another tool's) is dropped: its
                # file is linted again.
                return {path: entry for path, entry in dict(data["files"]).items() if _well_formed(entry)}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        return {}

    # An entry: [status key or None, content digest, encoded diagnostics, findings hidden as demos,
    # the other files read: [[path, state], ...]].

    def _entry(self, path: str) -> Optional[list]:
        """The entry of `path`, unless a file its lint read has changed since."""
        entry = self._entries.get(os.path.abspath(path))
        if entry is None or not _reads.unchanged(map(tuple, entry[4])):
            return None
        return entry

    def lookup_by_stat(self, path: str) -> Optional[List[Diagnostic]]:
        entry = self._entry(path)
        if entry is None or entry[0] is None:
            return None
        try:
            status = os.stat(path)
        except OSError:
            return None
        if _stat_key(status) != entry[0]:
            return None
        return _decode(path, entry[2])

    def lookup_by_content(self, path: str, digest: str, status: Optional[os.stat_result]) -> Optional[List[Diagnostic]]:
        """The findings for bytes with `digest`, read from a file whose status was `status`."""
        entry = self._entry(path)
        if entry is None or entry[1] != digest:
            return None
        # refresh the status key for the next run
        self._remember(path, digest, entry[2], status, entry[3], [tuple(item) for item in entry[4]])
        return _decode(path, entry[2])

    def hidden(self, path: str) -> int:
        """How many findings of the entry just looked up were deliberate error demos, not shown."""
        entry = self._entries.get(os.path.abspath(path))
        return entry[3] if entry is not None else 0

    def store(self, path: str, digest: str, diagnostics: List[Diagnostic], status: Optional[os.stat_result],
              hidden: int = 0, read: _reads.Reads = ()) -> None:
        """Keep `diagnostics` for the bytes with `digest`, read from a file whose status was `status`
        (None: the bytes belong to no status, e.g. the file changed while it was read); `hidden`:
        the findings not shown as deliberate error demos; `read`: the other files the lint read."""
        self._remember(path, digest, [_encode(d) for d in diagnostics], status, hidden, read)

    def _remember(self, path: str, digest: str, encoded: list, status: Optional[os.stat_result], hidden: int,
                  read: _reads.Reads) -> None:
        entry = [_trusted_key(status), digest, encoded, hidden, [[p, state] for p, state in read]]
        key = os.path.abspath(path)
        if self._entries.get(key) != entry:
            self._entries[key] = entry
            self._dirty = True

    def save(self) -> None:
        if not self._dirty:
            return
        try:
            os.makedirs(self.directory, exist_ok=True)
            ignore = os.path.join(self.directory, ".gitignore")
            if not os.path.exists(ignore):
                with open(ignore, "w", encoding="utf-8") as handle:
                    handle.write("# Created by nnsight-lint.\n*\n")
            _sweep(self.directory)
            payload = json.dumps({"format": _FORMAT, "version": __version__, "files": self._entries})
            import tempfile  # here: a run that keeps nothing new never pays its import

            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=_TEMPORARY_PREFIX, suffix=".tmp")
        except OSError:
            return  # a cache that cannot be written is only a slower next run
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(payload)
            os.replace(temporary, self._index_path)
        except OSError:  # a full disk (ENOSPC), a file size limit (EFBIG): leave nothing behind
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _sweep(directory: str) -> None:
    """Remove the partial index files a run killed mid-write left behind (older than a minute, so
    a run writing its own right now keeps it)."""
    limit = time.time() - STALE_SECONDS
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(_TEMPORARY_PREFIX) and entry.name.endswith(".tmp"):
            try:
                if entry.stat(follow_symlinks=False).st_mtime < limit:
                    os.unlink(entry.path)
            except OSError:
                pass


def _well_formed(entry) -> bool:
    """[status key (three ints) or None, content digest, encoded diagnostics, findings hidden as
    demos (an int), the other files read ([[path, state], ...])]: the shape `_remember` writes."""
    if not isinstance(entry, list) or len(entry) != 5:
        return False
    key, digest, encoded, hidden, read = entry
    key_ok = key is None or (isinstance(key, list) and len(key) == 3 and all(type(n) is int for n in key))
    return (key_ok and isinstance(digest, str) and isinstance(encoded, list) and type(hidden) is int
            and _reads.well_formed(read))


def _stat_key(status: os.stat_result) -> list:
    return [status.st_size, status.st_mtime_ns, status.st_ino]


def _trusted_key(status: Optional[os.stat_result]) -> Optional[list]:
    if status is None or status.st_mtime_ns >= time.time_ns() - _reads.RACY_NS:
        return None
    return _stat_key(status)


def _encode(d: Diagnostic) -> list:
    fix = None
    if d.fix is not None:
        fix = [d.fix.safe, [[e.start.line, e.start.column, e.end.line, e.end.column, e.content] for e in d.fix.edits]]
    return [d.code, d.message, d.start.line, d.start.column, d.end.line, d.end.column, fix, d.cell, d.detail]


def _decode(path: str, encoded: list) -> Optional[List[Diagnostic]]:
    """The diagnostics of an entry; None when it is not of our shape (a foreign entry: recompute)."""
    try:
        out = []
        for code, message, line, column, end_line, end_column, fix, cell, detail in encoded:
            if not (_texts(code, message, detail) and _numbers(line, column, end_line, end_column)):
                return None
            if cell is not None and type(cell) is not int:
                return None
            if fix is not None:
                safe, edits = fix
                if type(safe) is not bool:
                    return None
                fix = Fix(tuple(_edit(*edit) for edit in edits), safe)
            out.append(Diagnostic(path, code, message, Position(line, column), Position(end_line, end_column), fix, cell,
                                  detail))
        return out
    except (TypeError, ValueError):
        return None


def _edit(line: int, column: int, end_line: int, end_column: int, text: str) -> Edit:
    if not (_numbers(line, column, end_line, end_column) and _texts(text)):
        raise ValueError("not an edit")
    return Edit(Position(line, column), Position(end_line, end_column), text)


def _numbers(*values) -> bool:
    return all(type(v) is int for v in values)


def _texts(*values) -> bool:
    return all(isinstance(v, str) for v in values)
