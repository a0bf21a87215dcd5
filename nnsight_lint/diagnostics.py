"""Plain data that flows from the rules to the doors: diagnostics, fixes and edits.

Positions are 1-based lines and 1-based columns counted in characters; the flake8 door and the
LSP door convert once, at their edge.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple


@dataclass(frozen=True, order=True)
class Position:
    line: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text between `start` and `end` (end exclusive) with `content`."""

    start: Position
    end: Position
    content: str


@dataclass(frozen=True)
class Fix:
    edits: Tuple[Edit, ...]
    safe: bool = True

    @property
    def applicability(self) -> str:
        return "safe" if self.safe else "unsafe"


@dataclass(frozen=True)
class Diagnostic:
    path: str
    code: str
    message: str
    start: Position
    end: Position
    fix: Optional[Fix] = field(default=None, compare=False)
    cell: Optional[int] = None  # 1-based code-cell number for notebooks
    # The story behind the short `message` (why, the error it gives, what to write instead):
    # printed by `--output-format full` and the runtime hook (`messages.Message`).
    detail: str = field(default="", compare=False)

    @property
    def line(self) -> int:
        return self.start.line

    @property
    def column(self) -> int:
        return self.start.column

    def sort_key(self):
        return (self.path, self.cell or 0, self.start, self.code)
