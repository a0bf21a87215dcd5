"""A cache of findings keyed by file content, settings and tool version, so an unchanged file is
never parsed twice. `.nnsight_lint_cache/` holds one JSON index per (version, settings); a file is
a hit when its size, mtime and inode match the index (no read), or, failing that, its content hash
does. A corrupt, foreign or unwritable cache is ignored: the run just does the work.

An entry is keyed by what was read, never by what is on disk when it is stored: the status comes
from the open file before its bytes were read (api.read_with_stat). A status is not kept at all
when the file changed while it was read, or was modified so recently that a write in the same
mtime tick could follow unseen (git's "racy" files); such a file is hashed again next time.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from typing import Dict, List, Optional

from nnsight_lint import __version__
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position

CACHE_DIR_NAME = ".nnsight_lint_cache"
_FORMAT = 3  # 3: a finding keeps its story (`detail`)
# Coarser than any file system's mtime resolution (FAT: 2 s): a file modified later than this
# before it was read may be written again without its mtime changing.
RACY_NS = 2_000_000_000


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class Cache:
    def __init__(self, directory: str, settings_key: str) -> None:
        self.directory = directory
        digest = hashlib.blake2b(f"{_FORMAT}|{__version__}|{settings_key}".encode(), digest_size=8).hexdigest()
        self._index_path = os.path.join(directory, f"index-{digest}.json")
        self._entries: Dict[str, list] = self._load()
        self._dirty = False

    def _load(self) -> Dict[str, list]:
        try:
            with open(self._index_path, encoding="utf-8") as handle:
                data = json.load(handle)
            if data.get("format") == _FORMAT and data.get("version") == __version__:
                return dict(data["files"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        return {}

    # An entry: [status key or None, content digest, encoded diagnostics].

    def lookup_by_stat(self, path: str) -> Optional[List[Diagnostic]]:
        entry = self._entries.get(os.path.abspath(path))
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
        entry = self._entries.get(os.path.abspath(path))
        if entry is None or entry[1] != digest:
            return None
        self._remember(path, digest, entry[2], status)  # refresh the status key for the next run
        return _decode(path, entry[2])

    def store(self, path: str, digest: str, diagnostics: List[Diagnostic], status: Optional[os.stat_result]) -> None:
        """Keep `diagnostics` for the bytes with `digest`, read from a file whose status was `status`
        (None: the bytes belong to no status, e.g. the file changed while it was read)."""
        self._remember(path, digest, [_encode(d) for d in diagnostics], status)

    def _remember(self, path: str, digest: str, encoded: list, status: Optional[os.stat_result]) -> None:
        entry = [_trusted_key(status), digest, encoded]
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
            payload = json.dumps({"format": _FORMAT, "version": __version__, "files": self._entries})
            handle, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(payload)
            os.replace(temporary, self._index_path)
        except OSError:
            pass  # a cache that cannot be written is only a slower next run


def _stat_key(status: os.stat_result) -> list:
    return [status.st_size, status.st_mtime_ns, status.st_ino]


def _trusted_key(status: Optional[os.stat_result]) -> Optional[list]:
    if status is None or status.st_mtime_ns >= time.time_ns() - RACY_NS:
        return None
    return _stat_key(status)


def _encode(d: Diagnostic) -> list:
    fix = None
    if d.fix is not None:
        fix = [d.fix.safe, [[e.start.line, e.start.column, e.end.line, e.end.column, e.content] for e in d.fix.edits]]
    return [d.code, d.message, d.start.line, d.start.column, d.end.line, d.end.column, fix, d.cell, d.detail]


def _decode(path: str, encoded: list) -> Optional[List[Diagnostic]]:
    try:
        out = []
        for code, message, line, column, end_line, end_column, fix, cell, detail in encoded:
            if fix is not None:
                safe, edits = fix
                fix = Fix(tuple(Edit(Position(a, b), Position(c, d), text) for a, b, c, d, text in edits), safe)
            out.append(Diagnostic(path, code, message, Position(line, column), Position(end_line, end_column), fix, cell,
                                  detail))
        return out
    except (TypeError, ValueError):
        return None  # a foreign entry: recompute
