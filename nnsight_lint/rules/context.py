"""What a rule gets besides the model: positions of nodes, and a way to make diagnostics."""
from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from nnsight_lint.diagnostics import Diagnostic, Fix, Position
from nnsight_lint.positions import Positions


class RuleContext:
    def __init__(self, path: str, module: cst.Module) -> None:
        self.path = path
        self.module = module
        self._positions: Optional[Positions] = None
        self._lines = None

    def span(self, node: cst.CSTNode) -> Tuple[Position, Position]:
        """1-based line and column of a node's first character, and of the character after it."""
        if self._positions is None:  # computed on first use: most files report nothing
            self._positions = Positions(self.module)
        return self._positions.span(node)

    def line_text(self, line: int) -> str:
        if self._lines is None:
            self._lines = self.module.code.splitlines()
        return self._lines[line - 1] if 0 < line <= len(self._lines) else ""

    def diagnostic(self, code: str, node: cst.CSTNode, message: str, fix: Optional[Fix] = None) -> Diagnostic:
        start, end = self.span(node)
        return Diagnostic(self.path, code, message, start, end, fix)
