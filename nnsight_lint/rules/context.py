"""What a rule gets besides the model: positions of nodes, and a way to make diagnostics."""
from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from nnsight_lint.diagnostics import Diagnostic, Fix, Position


class RuleContext:
    def __init__(self, path: str, wrapper: MetadataWrapper) -> None:
        self.path = path
        self.module: cst.Module = wrapper.module
        self._wrapper = wrapper
        self._positions = None
        self._lines = None

    def span(self, node: cst.CSTNode) -> Tuple[Position, Position]:
        """1-based line and column of a node's first character, and of the character after it."""
        if self._positions is None:  # computed on first use: most files report nothing
            self._positions = self._wrapper.resolve(PositionProvider)
        code_range = self._positions[node]
        return (
            Position(code_range.start.line, code_range.start.column + 1),
            Position(code_range.end.line, code_range.end.column + 1),
        )

    def line_text(self, line: int) -> str:
        if self._lines is None:
            self._lines = self.module.code.splitlines()
        return self._lines[line - 1] if 0 < line <= len(self._lines) else ""

    def diagnostic(self, code: str, node: cst.CSTNode, message: str, fix: Optional[Fix] = None) -> Diagnostic:
        start, end = self.span(node)
        return Diagnostic(self.path, code, message, start, end, fix)
