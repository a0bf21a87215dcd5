"""Fast, read-only walking of libcst trees.

libcst's own `visit` and `children` rebuild nodes as they go, which costs more than the parse;
the analysis only reads, so it walks dataclass fields directly, skipping layout-only fields.
"""
from __future__ import annotations

import dataclasses
from typing import Dict, List, Sequence, Set, Tuple

import libcst as cst

# Fields that hold layout (whitespace, punctuation, blank lines, comments and line ends) or names
# that are not variable references. A fifth of a tree's nodes are line ends and blank lines.
_SKIPPED = {
    "lpar", "rpar", "lbracket", "rbracket", "lbrace", "rbrace", "comma", "dot", "equal", "colon",
    "semicolon", "operator", "keyword", "attr", "asynchronous",
    "comment", "empty_lines", "first_line", "last_line", "footer", "header", "leading_lines",
    "leading_whitespace", "lines_after_decorators", "newline", "trailing_whitespace",
}
_FIELDS: Dict[type, Tuple[str, ...]] = {}
# Exact-type tests: isinstance against libcst's abstract base classes is slow.
SEQUENCES = frozenset({tuple, list})
NOT_NODES = frozenset({type(None), str, bool, int, type(cst.MaybeSentinel.DEFAULT)})


def code_fields(kind: type) -> Tuple[str, ...]:
    """The fields of a node type that carry code (what `children` reads), in field order."""
    names = _FIELDS.get(kind)
    if names is None:
        names = tuple(
            f.name
            for f in dataclasses.fields(kind)
            if f.name not in _SKIPPED and not f.name.startswith("whitespace")
        )
        _FIELDS[kind] = names
    return names


def children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """The child nodes that carry code, in field order (source order for expressions)."""
    return _in_fields(node, code_fields(type(node)))


_EVERY_FIELD: Dict[type, Tuple[str, ...]] = {}


def every_child(node: cst.CSTNode) -> List[cst.CSTNode]:
    """All child nodes, layout included (whitespace, punctuation, attribute names)."""
    names = _EVERY_FIELD.get(type(node))
    if names is None:
        names = _EVERY_FIELD[type(node)] = tuple(f.name for f in dataclasses.fields(type(node)))
    return _in_fields(node, names)


def _in_fields(node: cst.CSTNode, names: Tuple[str, ...]) -> List[cst.CSTNode]:
    # A list, not a generator: most nodes have one to three children, and resuming a generator
    # for each costs more than building the list.
    found = []
    for name in names:
        value = getattr(node, name)
        if type(value) in SEQUENCES:
            for item in value:
                if type(item) not in NOT_NODES:
                    found.append(item)
        elif type(value) not in NOT_NODES:
            found.append(value)
    return found


def body_of(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """The statements of a compound statement's (or an `else:`/`except:`/`case` arm's) body."""
    body = node.body
    if type(body) is cst.IndentedBlock:
        return body.body
    if type(body) is cst.SimpleStatementSuite:
        return [cst.SimpleStatementLine(body=body.body)]
    return body if isinstance(body, Sequence) else [body]


def statement_blocks(node: cst.CSTNode) -> List[Sequence[cst.CSTNode]]:
    """The statement blocks directly inside a compound statement, in source order."""
    blocks: List[Sequence[cst.CSTNode]] = []
    if type(node) is cst.If:
        blocks.append(body_of(node))
        if node.orelse is not None:
            blocks.append([node.orelse] if type(node.orelse) is cst.If else body_of(node.orelse))
    elif isinstance(node, (cst.For, cst.While, cst.With)):
        blocks.append(body_of(node))
        if getattr(node, "orelse", None) is not None:
            blocks.append(body_of(node.orelse))
    elif isinstance(node, (cst.Try, cst.TryStar)):
        blocks.append(body_of(node))
        blocks.extend(body_of(handler) for handler in node.handlers)
        for part in (node.orelse, node.finalbody):
            if part is not None:
                blocks.append(body_of(part))
    elif type(node) is cst.Match:
        blocks.extend(body_of(case) for case in node.cases)
    return blocks


def subtree_ids(node: cst.CSTNode) -> Set[int]:
    """The ids of `node` and every node below it."""
    found, stack = set(), [node]
    while stack:
        current = stack.pop()
        found.add(id(current))
        stack.extend(children(current))
    return found
