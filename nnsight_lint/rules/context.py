"""What a rule gets besides the model: positions of nodes, and a way to make diagnostics."""
from __future__ import annotations

from typing import Collection, List, Optional, Tuple

import libcst as cst

from nnsight_lint.diagnostics import Diagnostic, Fix, Position
from nnsight_lint.positions import Positions
from nnsight_lint.text import split_lines


class RuleContext:
    def __init__(self, path: str, module: cst.Module, text: str, anchors: Optional[Collection[int]] = None) -> None:
        """`text` is the module's source; `anchors` the ids of the nodes rules report inside."""
        self.path = path
        self.module = module
        self.lines: List[str] = split_lines(text)
        self._anchors = anchors
        self._positions: Optional[Positions] = None

    def span(self, node: cst.CSTNode) -> Tuple[Position, Position]:
        """1-based line and column of a node's first character, and of the character after it."""
        if self._positions is None:  # computed on first use: most files report nothing
            self._positions = Positions(self.module, self._anchors)
        return self._positions.span(node)

    def line_text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def diagnostic(self, code: str, node: cst.CSTNode, message: str, fix: Optional[Fix] = None) -> Diagnostic:
        start, end = self.span(node)
        return Diagnostic(self.path, code, message, start, end, fix)
