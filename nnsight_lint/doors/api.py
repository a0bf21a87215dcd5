"""Files in, results out: what every door (CLI, pre-commit, flake8, LSP) calls for one file;
`runner.check_paths` does many."""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, List, Optional, Tuple

from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.engine.lint import DEFAULT_OPTIONS, LintOptions

if TYPE_CHECKING:
    from nnsight_lint.sources.source import FixResult


def __getattr__(name: str):
    # `source` (and the notebook module behind it) is imported when a file is checked, not by a
    # run the pre-filter answers; `FixResult`, the doors' result type, is still found here.
    if name == "FixResult":
        from nnsight_lint.sources.source import FixResult

        return FixResult
    raise AttributeError(name)


@dataclass
class FileResult:
    path: str
    diagnostics: List[Diagnostic] = field(default_factory=list)
    error: Optional[str] = None  # the file could not be read or checked
    hidden: int = 0  # findings not shown: the code shows their error on purpose (report-deliberate-errors)
    reads: tuple = ()  # the other files the lint read, with their states (`sources/reads.py`)


def read_source(path: str) -> Tuple[Optional[bytes], Optional[str]]:
    """(the file's bytes, None), or (None, why it cannot be read)."""
    data, _, error = read_with_stat(path)
    return data, error


# Never blocks: a FIFO opens at once instead of waiting for a writer, a /proc file that would wait
# for data fails instead (EAGAIN). Regular files ignore O_NONBLOCK.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


def _read_all(descriptor: int, size: int) -> bytes:
    """Every byte to the end: `size + 1` asked first, so a file as large as its status says takes
    one read and the end-of-file read (os.read directly: a file object per file costs a third of
    reading a large tree)."""
    chunks = []
    while True:
        chunk = os.read(descriptor, size + 1 if not chunks else 1 << 20)
        if not chunk:
            return b"".join(chunks) if len(chunks) != 1 else chunks[0]
        chunks.append(chunk)


def read_with_stat(path: str) -> Tuple[Optional[bytes], Optional[os.stat_result], Optional[str]]:
    """(bytes, the status of the file they were read from, None), or (None, None, why not).

    Only regular files are read: a FIFO, a device or a socket is refused, never opened for a
    blocking read. The status is taken from the open file before reading; it is None when the file
    changed while it was read, so that nobody keys what was read to a status it did not have.
    """
    from nnsight_lint import messages

    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            return None, None, messages.NOT_REGULAR_FILE.format(kind=file_kind(mode))
        descriptor = os.open(path, _READ_FLAGS)
    except OSError as error:
        return None, None, f"cannot read: {error.strerror or error}"
    try:
        before = os.fstat(descriptor)
        if not stat.S_ISREG(before.st_mode):  # swapped for a special file since the stat above
            return None, None, messages.NOT_REGULAR_FILE.format(kind=file_kind(before.st_mode))
        data = _read_all(descriptor, before.st_size)
        after = os.fstat(descriptor)
    except OSError as error:
        return None, None, f"cannot read: {error.strerror or error}"
    finally:
        os.close(descriptor)
    unchanged = (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns)
    return data, before if unchanged else None, None


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, kind in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory")):
        if test(mode):
            return kind
    return "a special file"


def lint_file(path: str, options: LintOptions = DEFAULT_OPTIONS) -> FileResult:
    source, error = read_source(path)
    if error is not None:
        return FileResult(path, error=error)
    return lint_text(source, path, options)


def lint_text(source, path: str, options: LintOptions = DEFAULT_OPTIONS) -> FileResult:
    from nnsight_lint.engine.lint import counting_hidden
    from nnsight_lint.sources import source as sources

    from nnsight_lint.sources import reads

    with counting_hidden() as hidden, reads.recording() as read:
        diagnostics, error = sources.lint(source, path, options)  # a bug of ours hides no other file's findings
    return FileResult(path, diagnostics, error, len(hidden), reads.frozen(read))


def fix_bytes(source: bytes, path: str, options: LintOptions = DEFAULT_OPTIONS, unsafe: bool = False) -> "FixResult":
    """Fix one file's source in memory; `data` is what to write back (or print, for stdin)."""
    from nnsight_lint.sources import source as sources
    from nnsight_lint.sources.source import FixResult

    try:
        return sources.of(source, path).fix(options, unsafe)
    except Exception as error:  # a bug of ours stays with this file: the others are still fixed
        return FixResult(path, data=source, error=f"internal error: {type(error).__name__}: {error}")


def fix_file(path: str, options: LintOptions = DEFAULT_OPTIONS, unsafe: bool = False, write: bool = True) -> "FixResult":
    """Fix one file; with `write`, replace it atomically. A file that cannot be written (read-only
    for this user, or deleted or changed on disk since it was read) is left as it is and reported
    with its findings unfixed."""
    from nnsight_lint import messages
    from nnsight_lint.engine.fixing import WriteRefused, write_atomically
    from nnsight_lint.sources.source import FixResult

    source, status, error = read_with_stat(path)
    if error is not None:
        return FixResult(path, error=error)
    result = fix_bytes(source, path, options, unsafe)
    if write and result.error is None and result.data != source:
        try:
            if status is None:  # someone was writing it while we read it
                raise WriteRefused(messages.CHANGED_WHILE_FIXING)
            result.notice = write_atomically(path, result.data, expected=status)
        except (OSError, WriteRefused) as error:
            unfixed = lint_text(source, path, options)
            if isinstance(error, WriteRefused):
                problem = str(error)
            else:
                problem = f"cannot write: {error.strerror or error}; the file was left unchanged"
            return FixResult(path, result.before, result.before, source, remaining=unfixed.diagnostics, error=problem)
    return result
