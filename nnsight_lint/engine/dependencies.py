"""Which top-level statements of a huge file a piece of it needs (`slicing.pieces`): the names each
statement binds and reads, from CPython's parser one statement at a time (small and fast: libcst's
tree of the whole file is what pieces avoid), and the statements that reach a piece's reads or
read what its traces bind.

A statement's reads reach back to the statements binding those names before it, up to the nearest
one that binds the name for certain (an assignment, import, `def`, `class` or `with` body at top
level; not an `if`, loop or `try`), or to every binder when none comes before (a helper defined
below its caller). What a trace binds reaches forward to the statements reading it, up to the next
certain rebinding. Both are closed: what is pulled in pulls in what it needs.
"""
from __future__ import annotations

import ast
import bisect
from typing import Dict, List, Optional, Sequence, Set, Tuple

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_MUTATING = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "pop", "clear", "remove"})


def _base(node: ast.AST) -> Optional[str]:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


class Names:
    __slots__ = ("binds", "reads", "certain", "star", "definition", "prelude")

    def __init__(self) -> None:
        self.binds: Set[str] = set()
        self.reads: Set[str] = set()
        self.certain: Set[str] = set()  # bound whenever the statement runs
        self.star = False  # `from x import *`: binds what nobody can tell
        self.definition = False  # a def or class: its body reads at call time
        self.prelude = False  # a docstring or `from __future__`: every piece keeps it


def names_of(source: str, first: bool) -> Optional[Names]:
    """The names of one top-level statement's source; None when CPython cannot parse it alone."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found = Names()
    for statement in tree.body:
        _collect(statement, found)
        _certain(statement, found.certain)
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.definition = True
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            found.prelude = True
        if first and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            found.prelude = True
    return found


def names_of_all(sources: Sequence[str]) -> List[Optional[Names]]:
    """`names_of` for each of a file's top-level statements, in order: in the worker processes a
    huge file's pieces may use (`parallel.mapped`), a few chunks each, as CPython parsing each
    statement is most of the time the parent spends before the pieces are linted."""
    from nnsight_lint.engine.parallel import mapped

    step = max(1, -(-len(sources) // _CHUNKS))
    found: List[Optional[Names]] = []
    for names in mapped(_names_in, [(start, sources[start:start + step]) for start in range(0, len(sources), step)]):
        found.extend(names)
    return found


_CHUNKS = 8  # the statements' share of a worker, in a few chunks: workers that end early take more


def _names_in(chunk: Tuple[int, Sequence[str]]) -> List[Optional[Names]]:
    start, sources = chunk
    return [names_of(source, start + offset == 0) for offset, source in enumerate(sources)]


def _collect(node: ast.AST, found: Names, local: bool = False) -> None:
    """Reads anywhere (a helper's free names too); bindings outside function and class bodies."""
    # One walk of every node of every top-level statement of a huge file: types are compared
    # directly, and children read from `_fields` (ast.iter_child_nodes is two generators a node).
    reads, binds = found.reads, found.binds
    stack = [(node, local)]
    pop, push = stack.pop, stack.append
    while stack:
        node, local = pop()
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is ast.Load:
                reads.add(node.id)
            elif not local:
                binds.add(node.id)
            continue
        if kind in _NOTED:
            if (kind is ast.Import or kind is ast.ImportFrom) and not local:
                for alias in node.names:
                    if alias.name == "*":
                        found.star = True
                    else:
                        binds.add(alias.asname or alias.name.partition(".")[0])
            elif kind in _DEFINITIONS and not local:
                binds.add(node.name)
            elif kind is ast.Global:
                binds.update(node.names)  # a function that rebinds a module name
            elif kind is ast.MatchAs and node.name and not local:
                binds.add(node.name)
            elif (kind is ast.Subscript or kind is ast.Attribute) and type(node.ctx) is ast.Store:
                base = _base(node)
                if base is not None:
                    binds.add(base)  # `saved[i] = ...`, `cfg.x = ...`: a new value of the name
            elif (kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr in _MUTATING
                  and type(node.func.value) is ast.Name):
                binds.add(node.func.value.id)  # `outputs.append(...)`
        inner = local or kind in _SCOPE_KINDS
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        push((item, inner))
            elif isinstance(value, ast.AST) and field != "ctx":  # Load/Store: nothing below
                push((value, inner))


_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_SCOPE_KINDS = frozenset(_SCOPES)
_NOTED = frozenset({ast.Import, ast.ImportFrom, ast.Global, ast.MatchAs, ast.Subscript, ast.Attribute, ast.Call,
                    *_DEFINITIONS})


def _certain(statement: ast.stmt, certain: Set[str]) -> None:
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else ([statement.target] if statement.value else [])
        for target in targets:
            certain.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    elif isinstance(statement, (ast.Import, ast.ImportFrom)):
        certain.update(a.asname or a.name.partition(".")[0] for a in statement.names if a.name != "*")
    elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        certain.add(statement.name)
    elif isinstance(statement, (ast.With, ast.AsyncWith)):
        for inner in statement.body:
            _certain(inner, certain)


class Graph:
    """The statements' names, indexed: who binds and who reads each name, in file order."""

    def __init__(self, names: Sequence[Names]) -> None:
        self.names = names
        self.binders: Dict[str, List[int]] = {}
        self.readers: Dict[str, List[int]] = {}
        self.stars = [i for i, n in enumerate(names) if n.star]
        self.prelude = [i for i, n in enumerate(names) if n.prelude]
        for index, found in enumerate(names):
            for name in found.binds:
                self.binders.setdefault(name, []).append(index)
            for name in found.reads:
                self.readers.setdefault(name, []).append(index)

    def needed(self, own: Sequence[int], traces: Set[int]) -> Set[int]:
        """`own` (a run of statements) and every statement it needs, as the module docstring says."""
        included: Set[int] = set(own) | set(self.prelude) | set(self.stars)
        last = max(own)
        work = list(included)
        fed = set(i for i in included if i in traces)  # traces, and what reads what they bind
        while work:
            index = work.pop()
            found = self.names[index]
            at = last + 1 if found.definition else index  # a helper reads when called: later
            # A trace's rules also ask what its names held before it (kept, or undefined after it).
            for name in (found.reads | found.binds) if index in traces else found.reads:
                for binder in self._reaching(name, at):
                    if binder not in included:
                        included.add(binder)
                        work.append(binder)
                        if binder in traces:
                            fed.add(binder)
            if index in fed:  # what the piece's traces bind (or what that fed binds), read later
                for name in found.binds:
                    for reader in self._reading(name, index):
                        if reader not in fed:
                            fed.add(reader)
                            if reader not in included:
                                included.add(reader)
                            work.append(reader)
        return included

    def _reaching(self, name: str, at: int) -> List[int]:
        binders = self.binders.get(name)
        if not binders:
            return []
        before = bisect.bisect_left(binders, at)
        if before == 0:
            return binders  # bound only below: a helper defined after its caller
        reached = []
        for position in range(before - 1, -1, -1):
            binder = binders[position]
            reached.append(binder)
            if name in self.names[binder].certain:
                break
        return reached

    def _reading(self, name: str, index: int) -> List[int]:
        readers = self.readers.get(name)
        if not readers:
            return []
        binders = self.binders.get(name, [])
        following = bisect.bisect_right(binders, index)
        stop = len(self.names)
        for binder in binders[following:]:
            if name in self.names[binder].certain:
                stop = binder + 1  # it reads the name too, maybe (`x = x + 1`), then rebinds it
                break
        return readers[bisect.bisect_right(readers, index) : bisect.bisect_left(readers, stop)]
