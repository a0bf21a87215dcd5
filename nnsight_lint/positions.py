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
from typing import Collection, Dict, List, Optional, Sequence, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState

from nnsight_lint.diagnostics import Position
from nnsight_lint.analysis.tree import children
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


class _Segment:
    """The spans recorded while generating one piece of the module, placed at `base` in the text."""

    __slots__ = ("spans", "offsets", "base")

    def __init__(self, state: _SpanRecordingState, base: int) -> None:
        self.spans = state.spans
        self.offsets = [0, *itertools.accumulate(map(len, state.tokens))]
        self.base = base


class Positions:
    def __init__(
        self,
        module: cst.Module,
        anchors: Optional[Collection[int]] = None,
        text: Optional[str] = None,
        tops: Optional[Collection[cst.CSTNode]] = None,
        lines: Optional[Sequence[int]] = None,
    ) -> None:
        """Positions of the nodes inside `anchors` (ids of nodes); of every node when None.

        With `text` (the module's source), only the top-level statements that hold an anchor are
        generated, each placed where its code stands in `text`: a trace in a long file costs its
        own statement, not the file. When a statement's code is not found exactly once, the whole
        module is generated instead. `tops`, when the caller knows them, are those statements.
        `lines`: the module is a piece of a file, whose line N is the file's line `lines[N - 1]`.
        """
        self._module = module
        self._lines = lines
        self._tops = None if tops is None else {id(top) for top in tops}
        if anchors is not None and text is not None and self._place_statements(anchors, text):
            return
        self._generate_whole(anchors)

    def _generate_whole(self, anchors: Optional[Collection[int]]) -> None:
        state = _SpanRecordingState(self._module, anchors)
        self._module._codegen(state)
        self._segments = [_Segment(state, 0)]
        self._owner = dict.fromkeys(state.spans, self._segments[0])
        self._line_starts = line_starts("".join(state.tokens))

    def _place_statements(self, anchors: Collection[int], text: str) -> bool:
        segments = []
        for statement in self._module.body:
            if id(statement) not in self._tops if self._tops is not None else not _holds(statement, anchors):
                continue
            if getattr(statement, "leading_lines", ()):  # they belong to the statement, not its code
                statement = statement.with_changes(leading_lines=())
            state = _SpanRecordingState(self._module, anchors)
            statement._codegen(state)
            code = "".join(state.tokens)
            at = text.find(code)
            if not code or at < 0 or text.find(code, at + 1) >= 0:
                return False
            segments.append(_Segment(state, at))
        self._segments = segments
        self._owner = {node: segment for segment in segments for node in segment.spans}
        self._line_starts = line_starts(text)
        return True

    def span(self, node: cst.CSTNode) -> Tuple[Position, Position]:
        """1-based (line, column) of the node's first character and of the character after it."""
        segment = self._owner.get(node)
        if segment is None:  # outside every anchor: record everything, once
            self._generate_whole(None)
            segment = self._segments[0]
        start, end = self._token_range(segment, node)
        return self._position(segment, start), self._position(segment, end)

    def _token_range(self, segment: _Segment, node: cst.CSTNode) -> Tuple[int, int]:
        start, end, start_node, end_node = segment.spans[node]
        if start_node is not None:
            start = self._token_range(segment, start_node)[0]
        if end_node is not None:
            end = self._token_range(segment, end_node)[1]
        return start, end

    def _position(self, segment: _Segment, token_index: int) -> Position:
        offset = segment.base + segment.offsets[min(token_index, len(segment.offsets) - 1)]
        line = bisect.bisect_right(self._line_starts, offset) - 1
        column = offset - self._line_starts[line] + 1
        if self._lines is not None:  # a piece of a file: its own lines stand for the file's
            return Position(self._lines[min(line, len(self._lines) - 1)], column)
        return Position(line + 1, column)


def _holds(statement: cst.CSTNode, anchors: Collection[int]) -> bool:
    stack = [statement]
    while stack:
        node = stack.pop()
        if id(node) in anchors:
            return True
        stack.extend(children(node))
    return False
