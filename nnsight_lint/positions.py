"""Node positions at a fraction of libcst's PositionProvider cost.

PositionProvider tracks line and column through every token of the module. Here the code
generator only notes where a node's tokens start and end in the token list, and only inside the
`anchors` (the nodes a rule may report or edit, e.g. backward calls); the few positions a run
reports are turned into lines and columns on demand. Semantics are PositionProvider's: a node's
syntactic range, else its whitespace-inclusive range.
"""
from __future__ import annotations

import bisect
import itertools
from typing import Collection, Dict, List, Optional, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState

from nnsight_lint.diagnostics import Position
from nnsight_lint.text import line_starts


class _SpanRecordingState(CodegenState):
    def __init__(self, module: cst.Module, anchors: Optional[Collection[int]]) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.spans: Dict[cst.CSTNode, tuple] = {}
        self.inclusive_starts: List[Optional[int]] = []
        self.anchors = anchors
        self.depth = 0 if anchors is not None else 1  # > 0: inside an anchor, recording

    def before_codegen(self, node: cst.CSTNode) -> None:
        if self.anchors is not None and id(node) in self.anchors:
            self.depth += 1
        self.inclusive_starts.append(len(self.tokens) if self.depth else None)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.inclusive_starts.pop()
        if start is None:
            return
        if node not in self.spans:  # a syntactic range, recorded inside, wins
            self.spans[node] = (start, len(self.tokens), None, None)
        if self.anchors is not None and id(node) in self.anchors:
            self.depth -= 1

    def pop_trailing_newline(self) -> None:
        pass  # PositionProvider counts the newline a file without one would end with; so do we

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        # Plain objects, not @contextmanager: this runs once per node, and generators cost.
        return _Recording(self, node, start_node, end_node) if self.depth else _NOT_RECORDING


class _Recording:
    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: _SpanRecordingState, node, start_node, end_node) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = len(self.state.tokens)

    def __exit__(self, *exc) -> bool:
        self.state.spans[self.node] = (self.start, len(self.state.tokens), self.start_node, self.end_node)
        return False


class _NotRecording:
    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> bool:
        return False


_NOT_RECORDING = _NotRecording()


class Positions:
    def __init__(self, module: cst.Module, anchors: Optional[Collection[int]] = None) -> None:
        """Positions of the nodes inside `anchors` (ids of nodes); of every node when None."""
        self._module = module
        state = _SpanRecordingState(module, anchors)
        module._codegen(state)
        self._spans = state.spans
        self._offsets = [0, *itertools.accumulate(map(len, state.tokens))]
        self._line_starts = line_starts("".join(state.tokens))

    def span(self, node: cst.CSTNode) -> Tuple[Position, Position]:
        """1-based (line, column) of the node's first character and of the character after it."""
        if node not in self._spans:  # outside every anchor: record everything, once
            self.__init__(self._module)
        start, end = self._token_range(node)
        return self._position(start), self._position(end)

    def _token_range(self, node: cst.CSTNode) -> Tuple[int, int]:
        start, end, start_node, end_node = self._spans[node]
        if start_node is not None:
            start = self._token_range(start_node)[0]
        if end_node is not None:
            end = self._token_range(end_node)[1]
        return start, end

    def _position(self, token_index: int) -> Position:
        offset = self._offsets[min(token_index, len(self._offsets) - 1)]
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return Position(line + 1, offset - self._line_starts[line] + 1)
