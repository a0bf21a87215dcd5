"""Node positions at a fraction of libcst's PositionProvider cost.

PositionProvider tracks line and column through every token of the module. Here the code
generator only notes where each node's tokens start and end in the token list, one top-level
statement at a time: the statement that holds a node asked for, placed where its code stands in
the source text. A finding in a trace costs its own statement, not the file; the few positions a
run reports are turned into lines and columns on demand. Semantics are PositionProvider's: a
node's syntactic range, else its whitespace-inclusive range.
"""
from __future__ import annotations

import bisect
import itertools
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState

from nnsight_lint.diagnostics import Position
from nnsight_lint.analysis.tree import children, every_child
from nnsight_lint.engine.text import line_starts


class _SpanRecordingState(CodegenState):
    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.spans: Dict[cst.CSTNode, tuple] = {}
        self.inclusive_starts: List[int] = []

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.inclusive_starts.append(len(self.tokens))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.inclusive_starts.pop()
        if node not in self.spans:  # a syntactic range, recorded inside, wins
            self.spans[node] = (start, len(self.tokens), None, None)

    def pop_trailing_newline(self) -> None:
        pass  # PositionProvider counts the newline a file without one would end with; so do we

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        # A plain object, not @contextmanager: this runs once per node, and generators cost.
        return _Recording(self, node, start_node, end_node)


class _Recording:
    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: _SpanRecordingState, node, start_node, end_node) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = len(self.state.tokens)

    def __exit__(self, *exc) -> bool:
        self.state.spans[self.node] = (self.start, len(self.state.tokens), self.start_node, self.end_node)
        return False


class Generated:
    """One top-level statement's code and where each of its nodes' tokens lie in it; the same for
    every version of a document that keeps the statement (see `Positions`' cache)."""

    __slots__ = ("statement", "spans", "offsets", "text", "code_start")

    def __init__(self, statement: cst.CSTNode, module: cst.Module) -> None:
        state = _SpanRecordingState(module)
        statement._codegen(state)
        self.statement = statement  # held, so that its id is not reused while cached
        self.spans = state.spans
        self.offsets = [0, *itertools.accumulate(map(len, state.tokens))]
        self.text = "".join(state.tokens)
        # Where its code starts, after its leading blank and comment lines: those may differ from
        # the file's (slicing blanks definitions into blank lines that precede the next statement).
        span = state.spans.get(statement)
        self.code_start = self.offsets[span[0]] if span is not None and statement is not module else 0


def cached(cache: Optional[Dict[int, Generated]], statement: cst.CSTNode) -> Optional[Generated]:
    """What `cache` (statements generated, by id) holds for this very statement, if anything."""
    generated = cache.get(id(statement)) if cache is not None else None
    return generated if generated is not None and generated.statement is statement else None


class _Placed:
    """A generated statement placed in the text: its character offset 0 stands at `base`."""

    __slots__ = ("generated", "base")

    def __init__(self, generated: Generated, base: int) -> None:
        self.generated, self.base = generated, base


class Positions:
    def __init__(
        self,
        module: cst.Module,
        text: Optional[str] = None,
        lines: Optional[Sequence[int]] = None,
        likely: Iterable[cst.CSTNode] = (),
        cache: Optional[Dict[int, Generated]] = None,
    ) -> None:
        """Positions of the nodes of `module`.

        With `text` (the module's source), a node asked for costs the top-level statement that
        holds it, generated once and placed where its code stands in `text`; when that code is not
        found exactly once, the whole module is generated instead. Without `text`, the whole module
        is generated at once. `likely`: the top-level statements to look in first (those holding
        traces). `cache`: statements generated for an earlier version of the same document, by
        id; new ones are added. `lines`: the module is a piece of a file, whose line N is the
        file's line `lines[N - 1]`.
        """
        self._module = module
        self._text = text
        self._lines = lines
        self._cache = cache
        self._owner: Dict[cst.CSTNode, _Placed] = {}
        self._top_of: Dict[int, cst.CSTNode] = {}  # id of a node -> its top-level statement, as walked
        self._unwalked: Iterator[cst.CSTNode] = _in_order(module.body, likely)
        if text is None:
            self._generate_whole()
        else:
            self._line_starts = line_starts(text)

    def span(self, node: cst.CSTNode) -> Tuple[Position, Position]:
        """1-based (line, column) of the node's first character and of the character after it."""
        placed = self._owner.get(node)
        if placed is None:
            placed = self._place(node)
        start, end = self._token_range(placed.generated, node)
        return self._position(placed, start), self._position(placed, end)

    def _place(self, node: cst.CSTNode) -> _Placed:
        top = self._top_holding(node)
        if top is not None:
            generated = cached(self._cache, top)
            if generated is None:
                generated = Generated(top, self._module)
                if self._cache is not None:
                    self._cache[id(top)] = generated
            code = generated.text[generated.code_start:]
            at = self._text.find(code) if code else -1
            if at >= 0 and self._text.find(code, at + 1) < 0:
                placed = _Placed(generated, at - generated.code_start)
                self._owner.update(dict.fromkeys(generated.spans, placed))
                if node in generated.spans:
                    return placed
        self._generate_whole()  # not found exactly once, or not in any statement (the module)
        return self._owner[node]

    def _top_holding(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The top-level statement that holds `node`, walking statements not yet walked: through
        the nodes that carry code first (what rules report), then through every node."""
        wanted = id(node)
        for walk in (_code_nodes, every_child):
            top = self._top_of.get(wanted)
            while top is None:
                candidate = next(self._unwalked, None)
                if candidate is None:
                    break
                generated = cached(self._cache, candidate)
                if generated is not None:  # its nodes are known
                    if node in generated.spans:
                        return candidate
                    continue
                stack = [candidate]
                while stack:
                    inner = stack.pop()
                    self._top_of[id(inner)] = candidate
                    stack.extend(walk(inner))
                top = self._top_of.get(wanted)
            if top is not None:
                return top
            self._unwalked = iter(self._module.body)  # again, through every node
        return None

    def _generate_whole(self) -> None:
        generated = Generated(self._module, self._module)
        placed = _Placed(generated, 0)
        self._owner = dict.fromkeys(generated.spans, placed)
        # Its own text: where the module is a relevant part of the file, lines are the file's.
        self._line_starts = line_starts(generated.text)

    @staticmethod
    def _token_range(generated: Generated, node: cst.CSTNode) -> Tuple[int, int]:
        start, end, start_node, end_node = generated.spans[node]
        if start_node is not None:
            start = Positions._token_range(generated, start_node)[0]
        if end_node is not None:
            end = Positions._token_range(generated, end_node)[1]
        return start, end

    def _position(self, placed: _Placed, token_index: int) -> Position:
        offsets = placed.generated.offsets
        offset = placed.base + offsets[min(token_index, len(offsets) - 1)]
        line = bisect.bisect_right(self._line_starts, offset) - 1
        column = offset - self._line_starts[line] + 1
        if self._lines is not None:  # a piece of a file: its own lines stand for the file's
            return Position(self._lines[min(line, len(self._lines) - 1)], column)
        return Position(line + 1, column)


def _code_nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes that carry code below `node`, and the names of attributes and keyword arguments."""
    yield from children(node)
    extra = getattr(node, "attr", None) if type(node) is cst.Attribute else getattr(node, "keyword", None)
    if isinstance(extra, cst.CSTNode):
        yield extra


def _in_order(body: Sequence[cst.CSTNode], likely: Iterable[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    first = list(dict.fromkeys(likely))
    seen = {id(top) for top in first}
    yield from first
    yield from (top for top in body if id(top) not in seen)
