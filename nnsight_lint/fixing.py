"""Applying fixes: edits onto text, re-linted until stable, written atomically.

Text is decoded with the file's own encoding (BOM and `# coding:` included) and encoded back the
same way; line endings and every byte outside an edit stay as they were.
"""
from __future__ import annotations

import io
import os
import re
import tempfile
import tokenize
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple

from nnsight_lint.diagnostics import Diagnostic, Edit, Position

MAX_PASSES = 10
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


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


def decode(source: bytes) -> Tuple[str, str]:
    """The text of a Python source file, and the encoding to write it back with."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    return source.decode(encoding), encoding


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits (later ones that overlap an earlier one are left out)."""
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def offset(position: Position) -> int:
        return starts[position.line - 1] + position.column - 1

    spans = sorted(((offset(e.start), offset(e.end), e.content) for e in edits), key=lambda s: s[:2])
    pieces, cursor = [], 0
    for start, end, content in spans:
        if start < cursor:
            continue  # overlaps an edit already taken; the next pass re-checks
        pieces.append(text[cursor:start])
        pieces.append(content)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def fix_text(
    text: str,
    lint: Callable[[str], List[Diagnostic]],
    unsafe: bool = False,
) -> FixOutcome:
    """Apply every applicable fix, re-linting after each pass until none is left (bounded).

    `lint` maps text to diagnostics. Raises FixError if a pass produces code that does not parse.
    """
    outcome = FixOutcome(text)
    for _ in range(MAX_PASSES):
        diagnostics = lint(outcome.text)
        applicable = [d for d in diagnostics if d.fix is not None and (d.fix.safe or unsafe)]
        if not applicable:
            outcome.remaining = diagnostics
            return outcome
        new_text = apply_edits(outcome.text, [e for d in applicable for e in d.fix.edits])
        if any(d.code == "NNL000" for d in lint(new_text)):
            raise FixError(f"a fix for {applicable[0].code} at line {applicable[0].line} would break the syntax")
        if new_text == outcome.text:
            break
        outcome.text = new_text
        outcome.fixed += len(applicable)
    outcome.remaining = lint(outcome.text)
    return outcome


def write_atomically(path: str, data: bytes) -> None:
    """Replace `path` with `data` so that an interruption leaves either the old or the new file."""
    directory = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".nnsight-lint-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def unified_diff(path: str, before: str, after: str) -> str:
    import difflib

    old, new = (path, path) if os.path.isabs(path) else (f"a/{path}", f"b/{path}")
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), old, new)
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
