"""Applying fixes: edits onto text, re-linted until stable, written atomically.

Text is decoded with the file's own encoding (BOM and `# coding:` included) and encoded back the
same way; line endings and every byte outside an edit stay as they were.
"""
from __future__ import annotations

import os
import stat
import tempfile
import warnings
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar

from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position
from nnsight_lint.engine.text import line_starts

MAX_PASSES = 10

Span = Tuple[int, int, str]  # start offset, end offset (exclusive), replacement


class FixError(Exception):
    """A fix would have produced code that does not parse; nothing was written."""


@dataclass
class FixOutcome:
    text: str
    fixed: int = 0
    remaining: List[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.fixed > 0


def apply_fixes(text: str, fixes: Sequence[Fix]) -> Tuple[str, int]:
    """Apply each fix whose edits all fit beside the ones already taken; (new text, fixes applied).

    A fix identical to one already taken (one call reported twice) counts as applied once more
    without editing twice. A fix that overlaps a taken one is left for the next pass.
    """
    texts, applied = compose({0: text}, [[(0, edit) for edit in fix.edits] for fix in fixes])
    return texts[0], applied


Part = TypeVar("Part")


def compose(texts: Mapping[Part, str], fixes: Sequence[Sequence[Tuple[Part, Edit]]]) -> Tuple[Dict[Part, str], int]:
    """`apply_fixes` over a document in parts (a notebook's cells): each fix is a list of edits, each
    on one part. A fix is taken whole or not at all: an edit of it that touches one already taken in
    its part leaves the fix for the next pass. (new texts of every part, fixes applied)."""
    starts = {part: line_starts(text) for part, text in texts.items()}

    def offset(part, position: Position) -> int:
        return starts[part][position.line - 1] + position.column - 1

    taken: Dict[Part, List[Span]] = {}
    applied = 0
    candidates = [
        sorted((part, offset(part, e.start), offset(part, e.end), e.content) for part, e in fix) for fix in fixes
    ]
    for spans in sorted(candidates):  # in document order: of two overlapping fixes, the first wins
        if spans and all(span[1:] in taken.get(span[0], ()) for span in spans):
            applied += 1
            continue
        if any(_conflict(span[1:], other) for span in spans for other in taken.get(span[0], ())):
            continue
        for part, *span in spans:
            taken.setdefault(part, []).append(tuple(span))
        applied += 1
    result = dict(texts)
    for part, spans in taken.items():
        text = texts[part]
        pieces, cursor = [], 0
        for start, end, content in sorted(spans, key=lambda s: s[:2]):
            pieces.append(text[cursor:start])
            pieces.append(content)
            cursor = end
        pieces.append(text[cursor:])
        result[part] = "".join(pieces)
    return result, applied


def _conflict(a: Span, b: Span) -> bool:
    """Two edits touch the same text, or insert at the same point (their order would be a guess)."""
    if a[0] == a[1] == b[0] == b[1]:
        return True
    return a[0] < b[1] and b[0] < a[1]


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits (one that overlaps an edit already taken is left out)."""
    return apply_fixes(text, [Fix((edit,)) for edit in edits])[0]


def syntax_error(text: str, strict: bool = True) -> Optional[str]:
    """Why `text` does not parse, or None. `strict` also asks CPython's compiler, which rejects
    some code libcst accepts (a repeated keyword argument); pass False for a file it already rejects
    (top-level `await` in a notebook cell, code for a newer Python).
    """
    from nnsight_lint.engine.depth import run_deep

    return run_deep(_syntax_error, text, strict)  # deep code that was linted parses here too


def _syntax_error(text: str, strict: bool) -> Optional[str]:
    import libcst as cst

    from nnsight_lint.engine.parser import parse_module

    try:
        parse_module(text)
    except cst.ParserSyntaxError as error:
        return str(error.message).strip().splitlines()[0]
    return _compile_error(text) if strict else None


def _compile_error(text: str) -> Optional[str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings are the file's own, not ours to print
            compile(text, "<fixed>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        return getattr(error, "msg", None) or str(error) or type(error).__name__
    return None


class FileSyntaxError(FixError):
    """The file itself does not parse: nothing is fixed until it does (its NNL000 says where)."""


def fix_text(
    text: str,
    lint: Callable[[str], List[Diagnostic]],
    unsafe: bool = False,
    checked_part: Optional[Callable[[str], str]] = None,
) -> FixOutcome:
    """Apply every applicable fix, re-linting after each pass until none is left (bounded).

    `lint` maps text to diagnostics. Each pass is checked by the parsers themselves, whatever rules
    `lint` runs. Raises FixError, and so reverts every fix, if a pass produces code that does not parse;
    FileSyntaxError if the file did not parse before any fix. With `checked_part` (text to the part of
    it the fixes touch, e.g. `engine.parsed_part`), a file whose own syntax error lies outside that
    part is fixed all the same, as long as the part keeps parsing: no fix adds a syntax error.
    """
    outcome = FixOutcome(text)
    strict = None  # does CPython compile the original? Asked once, when there is something to fix
    part = lambda t: t  # noqa: E731  (what must keep parsing: the whole text unless told otherwise)
    for _ in range(MAX_PASSES):
        diagnostics = lint(outcome.text)
        applicable = [d for d in diagnostics if d.fix is not None and (d.fix.safe or unsafe)]
        if not applicable:
            outcome.remaining = diagnostics
            return outcome
        new_text, applied = apply_fixes(outcome.text, [d.fix for d in applicable])
        if new_text == outcome.text:
            break
        if strict is None:
            own = _libcst_error(text)
            if own is not None and checked_part is None:
                raise FileSyntaxError(f"the file has a syntax error ({own}); fix it first")
            if own is not None:
                part = checked_part
                strict = syntax_error(part(text)) is None
            else:
                strict = _compile_error(text) is None  # libcst just parsed it
        broken = syntax_error(part(new_text), strict)
        if broken is not None:
            where = ", ".join(sorted({f"{d.code} at line {d.line}" for d in applicable}))
            raise FixError(f"the fix for {where} would produce code that does not parse ({broken})")
        outcome.text = new_text
        outcome.fixed += applied
    outcome.remaining = lint(outcome.text)
    return outcome


def _libcst_error(text: str) -> Optional[str]:
    """Where and why libcst cannot parse `text` ("line L, column C: why"), or None."""
    from nnsight_lint.engine.lint import parse

    parsed = parse(text, "<fixed>")
    if isinstance(parsed, Diagnostic):
        detail = parsed.message.split(": ", 1)[-1]
        return f"line {parsed.line}, column {parsed.column}: {detail}"
    return None


class WriteRefused(Exception):
    """The file was not written, and must not be: it is read-only for this user, or it is no longer
    the file that was read (deleted or replaced meanwhile). The message says which."""


def write_atomically(path: str, data: bytes, expected: Optional[os.stat_result] = None) -> Optional[str]:
    """Replace `path` with `data` so that an interruption leaves either the old or the new file.

    The new content goes to a temporary file in the same directory, flushed to disk, then renamed
    over the old one. A symlink is followed (the link stays, its target is rewritten); the file
    keeps its mode, and its owner and group when we may set them. Returns None, or a note on what
    could not be kept (the owner or group: only root may give a file away).

    Refused (WriteRefused): a file the user may not write, as writing it in place would be (the
    rename alone would bypass its mode); with `expected` (the status of the file when it was read),
    a file deleted or replaced since.
    """
    from nnsight_lint import messages

    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    try:
        status = os.stat(target)
    except FileNotFoundError:
        raise WriteRefused(messages.DELETED_WHILE_FIXING) from None
    if expected is not None and _identity(status) != _identity(expected):
        raise WriteRefused(messages.CHANGED_WHILE_FIXING)
    if not os.access(target, os.W_OK, effective_ids=os.access in os.supports_effective_ids):
        raise WriteRefused(messages.READ_ONLY.format(mode=oct(stat.S_IMODE(status.st_mode))[2:].zfill(4)))
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".nnsight-lint-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        note = _keep_owner(temporary, status)
        os.chmod(temporary, status.st_mode & 0o7777)  # after chown, which may clear set-id bits
        # Last look before the rename: a file deleted meanwhile stays deleted, one replaced stays.
        try:
            now = os.stat(target)
        except FileNotFoundError:
            raise WriteRefused(messages.DELETED_WHILE_FIXING) from None
        if _identity(now) != _identity(expected or status):
            raise WriteRefused(messages.CHANGED_WHILE_FIXING)
        os.replace(temporary, target)
        return note
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise


def _identity(status: os.stat_result) -> Tuple[int, int, int, int]:
    """What tells one version of a file from another: which inode, how long, when written."""
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


def _keep_owner(temporary: str, status: os.stat_result) -> Optional[str]:
    """Give the new file the old one's owner and group; say what could not be kept."""
    from nnsight_lint import messages

    if not hasattr(os, "chown"):
        return None
    try:
        os.chown(temporary, status.st_uid, status.st_gid)
        return None
    except OSError:
        pass
    try:
        os.chown(temporary, -1, status.st_gid)  # a group the user is in may still be kept
    except OSError:
        pass
    now = os.stat(temporary)
    lost = [what for what, old, new in (("owner", status.st_uid, now.st_uid), ("group", status.st_gid, now.st_gid)) if old != new]
    if not lost:
        return None
    return messages.OWNER_NOT_KEPT.format(
        what=" and ".join(lost), now=f"{_user(now.st_uid)}:{_group(now.st_gid)}",
        was=f"{_user(status.st_uid)}:{_group(status.st_gid)}",
    )


def _user(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return str(uid)


def _group(gid: int) -> str:
    try:
        import grp

        return grp.getgrgid(gid).gr_name
    except (ImportError, KeyError):
        return str(gid)


def unified_diff(path: str, before: str, after: str) -> str:
    import difflib

    old, new = (path, path) if os.path.isabs(path) else (f"a/{path}", f"b/{path}")
    lines = difflib.unified_diff(_lines(before), _lines(after), old, new)
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)


def _lines(text: str) -> List[str]:
    """Lines with their ends, split where Python splits them (not at form feeds or U+2028)."""
    starts = line_starts(text)
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)]) if a < b]
