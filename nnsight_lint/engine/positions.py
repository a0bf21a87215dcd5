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
import dataclasses
import itertools
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState

from nnsight_lint.diagnostics import Position
from nnsight_lint.analysis.tree import NOT_NODES, SEQUENCES, children, code_fields, every_child
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

    def __exit__(self, kind, *exc) -> bool:
        if kind is None:  # a header alone (`_Header`) stops inside its statement: no range for it
            self.state.spans[self.node] = (self.start, len(self.state.tokens), self.start_node, self.end_node)
        return False


class _Stop(Exception):
    pass


class _HeaderState(_SpanRecordingState):
    """Generates one statement at its own indentation, and of a compound statement only its header
    (up to its `:`): `stop` is the body, where generation stops."""

    def __init__(self, module: cst.Module, indents: Tuple[str, ...], statement: cst.CSTNode, stop) -> None:
        super().__init__(module)
        self.indent_tokens = list(indents)
        self.statement, self.stop, self.code_start = statement, stop, None

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node is self.stop:
            raise _Stop
        self.inclusive_starts.append(len(self.tokens))

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        if node is self.statement:
            self.code_start = len(self.tokens)
        return _Recording(self, node, start_node, end_node)


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


class _Nothing:
    __slots__ = ()

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> bool:
        return False


_NOTHING = _Nothing()


class _CodeState(CodegenState):
    """`_HeaderState` without ranges: only the code, to find a statement in the text."""

    def __init__(self, module: cst.Module, indents: Tuple[str, ...], statement: cst.CSTNode, stop) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.indent_tokens = list(indents)
        self.statement, self.stop, self.code_start = statement, stop, None

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node is self.stop:
            raise _Stop

    def pop_trailing_newline(self) -> None:
        pass

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        if node is self.statement:
            self.code_start = len(self.tokens)
        return _NOTHING


def _code(statement: cst.CSTNode, module: cst.Module, indents: Tuple[str, ...], elif_: bool = False) -> str:
    """The code of a statement, or of a compound statement's header, from where its syntax starts."""
    if type(statement) is not cst.SimpleStatementLine and type(statement) not in _COMPOUND:
        return ""  # (`match`: its cases have an indentation of their own) not looked for
    stop = None if type(statement) is cst.SimpleStatementLine else statement.body
    state = _CodeState(module, indents, statement, stop)
    try:
        statement._codegen(state, **({"is_elif": True} if elif_ else {}))  # as its `if` generates it
    except _Stop:
        pass
    return "" if state.code_start is None else "".join(state.tokens[state.code_start:])


class _Unit:
    """The code of one statement, or of a compound statement's header, generated at its own
    indentation; `spans` hold only the nodes inside that code (not the statement's leading lines,
    decorators, or the compound statement itself)."""

    __slots__ = ("spans", "offsets", "code", "code_start")

    def __init__(self, statement: cst.CSTNode, module: cst.Module, indents: Tuple[str, ...],
                 elif_: bool = False) -> None:
        stop = None if type(statement) is cst.SimpleStatementLine else statement.body
        state = _HeaderState(module, indents, statement, stop)
        try:
            statement._codegen(state, **({"is_elif": True} if elif_ else {}))
        except _Stop:
            pass
        start = state.code_start
        self.offsets = offsets = [0, *itertools.accumulate(map(len, state.tokens))]
        self.code_start = offsets[start] if start is not None else 0
        self.code = "".join(state.tokens)[self.code_start:] if start is not None else ""
        spans = {node: span for node, span in state.spans.items() if start is not None and span[0] >= start}
        # A range that ends at a node outside the code (a compound statement's body) is not known here.
        self.spans = {node: span for node, span in spans.items()
                      if (span[2] is None or span[2] in spans) and (span[3] is None or span[3] in spans)}


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
        statements: Optional[Sequence[Tuple[int, int]]] = None,
    ) -> None:
        """Positions of the nodes of `module`.

        With `text` (the module's source), a node asked for costs the top-level statement that
        holds it, generated once and placed where its code stands in `text`; when that code is not
        found exactly once, the whole module is generated instead. Without `text`, the whole module
        is generated at once. `likely`: the top-level statements to look in first (those holding
        traces). `cache`: statements generated for an earlier version of the same document, by
        id; new ones are added. `lines`: the module is a piece of a file, whose line N is the
        file's line `lines[N - 1]`. `statements`: the lines of each of the module's top-level
        statements in `text`, when known (`slicing.Sliced.statements`: a file as it was sliced, a
        piece as it was cut).
        """
        if text and not text.endswith(("\n", "\r")):
            # The newline the code generator ends the last statement with, as PositionProvider counts
            # it: else that statement's code is not found where it stands, but maybe elsewhere.
            text += module.default_newline
        self._module = module
        self._text = text
        self._lines = lines
        self._cache = cache
        self._owner: Dict[cst.CSTNode, _Placed] = {}
        self._top_of: Dict[int, cst.CSTNode] = {}  # id of a node -> its top-level statement, as walked
        # id of a node -> the statement (or compound header) whose code holds it, and that statement's
        # indentation; both as walked. None: no such statement (placed through the top-level one).
        self._unit_of: Dict[int, Optional[cst.CSTNode]] = {}
        self._indents: Dict[int, Tuple[str, ...]] = {}
        self._parent: Dict[int, tuple] = {}  # id of a statement in a block -> (compound statement, block, index)
        self._units: Dict[int, _Unit] = {}  # id of a statement -> its code (a compound's header) and ranges
        self._codes: Dict[int, str] = {}  # id of a statement -> its code alone
        self._elifs: set = set()  # ids of the `if` statements that are an `elif` of another
        self._where: Dict[int, Optional[int]] = {}  # id of a statement -> where its code starts, if known
        self._index: Optional[Dict[int, int]] = None
        # Each top-level statement's lines; only when there is one for each statement.
        known = statements is not None and text and len(statements) == len(module.body)
        self._statements = statements if known else None
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

    def start(self, node: cst.CSTNode) -> Position:
        """`span(node)[0]`; for a compound statement of one text, found from its header alone (a
        document's versions place its top-level statement once, for every version: see `_place`)."""
        if node not in self._owner and type(node) in _COMPOUND and self._text is not None and self._cache is None:
            self._top_holding(node)
            if id(node) in self._indents:
                at = self._located(node)
                if at is not None:
                    return self._at(at)
        return self.span(node)[0]

    def _place(self, node: cst.CSTNode) -> _Placed:
        top = self._top_holding(node)
        if top is not None:
            generated = cached(self._cache, top)
            if generated is None:
                # One version of a text: the statement holding the node is enough. A document's
                # versions (`cache`): the whole top-level statement, generated once for all the
                # versions that keep it, and found again in each by one search of the text.
                placed = self._place_unit(node, top) if self._cache is None else None
                if placed is not None:
                    return placed
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
            elif self._cache is not None:
                # Not found as generated (libcst does not give back every layout, e.g. a line
                # holding only `\`): the statement holding the node may still be found alone.
                if id(node) not in self._unit_of:
                    self._walk(top, _code_nodes)
                placed = self._place_unit(node, top)
                if placed is not None:
                    return placed
        self._generate_whole()  # not found exactly once, or not in any statement (the module)
        return self._owner[node]

    def _place_unit(self, node: cst.CSTNode, top: cst.CSTNode) -> Optional[_Placed]:
        """Only the statement (or compound header) holding `node`, found where its code stands:
        once in a stretch of the text that holds it (`_region`). None when it is not."""
        unit = self._unit_of.get(id(node))
        if unit is None:
            return None
        generated = self._generated_unit(unit)
        if node not in generated.spans:
            return None
        at = self._located(unit)
        if at is None:
            return None
        placed = _Placed(generated, at - generated.code_start)
        for inner in generated.spans:
            self._owner.setdefault(inner, placed)
        return placed

    def _generated_unit(self, statement: cst.CSTNode) -> _Unit:
        generated = self._units.get(id(statement))
        if generated is None:
            indents = self._indents.get(id(statement), ())
            generated = _Unit(statement, self._module, indents, id(statement) in self._elifs)
            self._units[id(statement)] = generated
        return generated

    def _located(self, statement: cst.CSTNode) -> Optional[int]:
        """Where the code of `statement` starts in the text, if found once in its `_region`."""
        key = id(statement)
        if key not in self._where:
            self._where[key] = None  # (no cycles: a region asks only for statements that hold this one)
            top = self._top_of.get(key)
            at = None
            if top is not None and top is not statement and self._parent.get(key, (None,))[0] is not top:
                at = self._found_in(statement, *self._region(top))  # most statements: once in their top's
            self._where[key] = at if at is not None else self._found_in(statement, *self._region(statement))
        return self._where[key]

    def _found_in(self, statement: cst.CSTNode, low: int, high: int) -> Optional[int]:
        code = self._codes.get(id(statement))
        if code is None:
            unit = self._units.get(id(statement))  # generated already, at the same indentation
            code = unit.code if unit is not None else _code(
                statement, self._module, self._indents.get(id(statement), ()), id(statement) in self._elifs)
            self._codes[id(statement)] = code
        at = self._text.find(code, low, high) if code else -1
        return at if at >= 0 and self._text.find(code, at + 1, high) < 0 else None

    def _region(self, statement: cst.CSTNode) -> Tuple[int, int]:
        """A stretch of the text that holds all of `statement`: inside the stretch that holds the
        statement around it, from the code of the nearest statement of its block up to it, to the
        code of the nearest one after it, found once there."""
        parent = self._parent.get(id(statement))
        if parent is None:  # a top-level statement (or an `else:`/`except:` arm: its top-level one's)
            top = self._top_of.get(id(statement))
            if top is None:
                return 0, len(self._text)
            if top is not statement:
                return self._region(top)
            index = self._top_index(top)
            bracket = self._bracket(index)
            if bracket is not None:
                return bracket
            outer, block = None, self._module.body
            low, high = 0, len(self._text)
        else:
            outer, block, index = parent
            low, high = self._region(outer)
            outer_at = self._located(outer)
            if outer_at is not None:
                low = outer_at
        found_low, found_high = low, high
        for i in range(index, max(index - _PROBES, -1), -1):
            at = self._found_in(block[i], low, high)
            if at is not None:
                found_low = at
                break
        for i in range(index + 1, min(index + 1 + _PROBES, len(block))):
            at = self._found_in(block[i], low, high)
            if at is not None:
                found_high = at
                break
        return found_low, found_high

    def _top_index(self, top: cst.CSTNode) -> int:
        if self._index is None:
            self._index = {id(one): i for i, one in enumerate(self._module.body)}
        return self._index[id(top)]

    def _bracket(self, index: int) -> Optional[Tuple[int, int]]:
        """The stretch of text of the module's top-level statement `index`, when its lines are known
        (`statements`): probing its neighbours' code instead generates their code and searches the
        text for it, which in a piece of a huge file is most of the linting."""
        if self._statements is None:
            return None
        first, end = self._statements[index]
        starts = self._line_starts
        # The last one: up to the newline `__init__` may have added, which its code ends with.
        last = index == len(self._statements) - 1 or end >= len(starts)
        return starts[first], len(self._text) if last else starts[end]

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
                self._walk(candidate, walk)
                top = self._top_of.get(wanted)
            if top is not None:
                return top
            self._unwalked = iter(self._module.body)  # again, through every node
        return None

    def _walk(self, top: cst.CSTNode, walk) -> None:
        """Notes, for every node of `top` that `walk` reaches, `top` and the statement holding it."""
        top_of, unit_of, indents_of, parent_of = self._top_of, self._unit_of, self._indents, self._parent
        default_indent = self._module.default_indent
        fields_of = _CODE_FIELDS if walk is _code_nodes else _EVERY_FIELD
        not_nodes, indented, simple = NOT_NODES, cst.IndentedBlock, cst.SimpleStatementLine
        stack: List[tuple] = [(top, None, ())]
        pop, push = stack.pop, stack.append
        while stack:
            inner, unit, indents = pop()
            kind = type(inner)
            key = id(inner)
            top_of[key] = top
            body = None
            if indents is not None and (kind is simple or kind in _COMPOUND):
                unit = inner
                indents_of[key] = indents
                body = getattr(inner, "body", None)
                if kind is cst.If and type(inner.orelse) is cst.If:
                    self._elifs.add(id(inner.orelse))
            elif kind in _OPAQUE:
                unit = indents = None  # its own indentation rules: placed through the top-level statement
            unit_of[key] = unit
            fields = fields_of.get(kind)
            if fields is None:
                fields = _fields_of(kind, fields_of)
            for name in fields:
                value = getattr(inner, name)
                if type(value) in SEQUENCES:
                    for item in value:
                        if type(item) not in not_nodes:
                            push((item, unit, indents))
                elif type(value) not in not_nodes:
                    if value is body and body is not None:
                        if type(value) is indented:
                            indent = value.indent if value.indent is not None else default_indent
                            push((value, None, indents + (indent,)))
                            for index, statement in enumerate(value.body):
                                parent_of[id(statement)] = (inner, value.body, index)
                        else:  # `if x: y` on one line: after the header
                            push((value, None, None))
                    else:
                        push((value, unit, indents))

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
        return self._at(placed.base + offsets[min(token_index, len(offsets) - 1)])

    def _at(self, offset: int) -> Position:
        line = bisect.bisect_right(self._line_starts, offset) - 1
        column = offset - self._line_starts[line] + 1
        if self._lines is not None:  # a piece of a file: its own lines stand for the file's
            return Position(self._lines[min(line, len(self._lines) - 1)], column)
        return Position(line + 1, column)


_PROBES = 8  # top-level statements looked at on each side for one found once in the text
_COMPOUND = frozenset({
    cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.Else,
    cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally,
})
_OPAQUE = frozenset({cst.Match})


_CODE_FIELDS: Dict[type, Tuple[str, ...]] = {}  # what `_code_nodes` walks, by type
_EVERY_FIELD: Dict[type, Tuple[str, ...]] = {}  # what `every_child` walks


def _fields_of(kind: type, fields_of: Dict[type, Tuple[str, ...]]) -> Tuple[str, ...]:
    every = tuple(f.name for f in dataclasses.fields(kind))
    if fields_of is _EVERY_FIELD:
        fields = every
    else:
        extra = "attr" if kind is cst.Attribute else "keyword"
        fields = tuple(name for name in every if name in _code_field_names(kind) or name == extra)
    fields_of[kind] = fields
    return fields


def _code_field_names(kind: type) -> frozenset:
    return frozenset(code_fields(kind))


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
