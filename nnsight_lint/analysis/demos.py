"""Code that shows an error on purpose: a `with pytest.raises(X):` block, or a `try:` body whose
`except` catches X. Tests and docs write nnsight mistakes deliberately this way; a finding there
is not a bug of the program (13 of 14 "bugs" a prototype found in nnsight's own repos were such).
What the text says (a comment, a notebook's markdown) is read by `nnsight_lint.analysis.deliberate`.

Computed only when a file has findings: it walks the tree once and needs positions.
"""
from __future__ import annotations

from typing import Callable, Collection, List, Optional, Tuple

import libcst as cst

from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.tree import children
from nnsight_lint.diagnostics import Position

_CATCH_ALL = frozenset({"Exception", "BaseException"})
# A region: its span, and the exception names it catches (None: everything).
Region = Tuple[Position, Position, Optional[frozenset]]


class Demos:
    def __init__(self, module: cst.Module, span: Callable[[cst.CSTNode], Tuple[Position, Position]]) -> None:
        self._regions: List[Region] = []
        stack: List[cst.CSTNode] = [module]
        while stack:  # iterative: deep code must not hit the recursion limit here
            node = stack.pop()
            kind = type(node)
            if kind is cst.Try or kind is cst.TryStar:
                caught = _caught(node.handlers)
                if node.body.body:
                    start, _ = span(node.body.body[0])
                    _, end = span(node.body.body[-1])
                    self._regions.append((start, end, caught))
            elif kind is cst.With:
                for item in node.items:
                    raised = _raises(item.item)
                    if raised is not False:
                        start, end = span(node.body)
                        self._regions.append((start, end, raised))
            stack.extend(children(node))

    def catches(self, where: Position, raises: Collection[str]) -> bool:
        wanted = set(raises) | _CATCH_ALL
        return any(
            start <= where < end and (caught is None or caught & wanted) for start, end, caught in self._regions
        )


def _names(node: Optional[cst.BaseExpression]) -> Optional[frozenset]:
    """The last segments of the exception names an expression lists; None: anything."""
    if node is None:
        return None
    if type(node) is cst.Tuple:
        found = frozenset()
        for element in node.elements:
            inner = _names(element.value)
            if inner is None:
                return None
            found |= inner
        return found
    name = dotted_name(node)
    return frozenset({name.rsplit(".", 1)[-1]}) if name else frozenset()


def _caught(handlers) -> Optional[frozenset]:
    found = frozenset()
    for handler in handlers:
        names = _names(handler.type)
        if names is None:
            return None
        found |= names
    return found


def _raises(item: cst.BaseExpression):
    """For `pytest.raises(X, ...)` (or `raises(X)`, `self.assertRaises(X)`): the names X lists; False
    when the item is not such a call."""
    if type(item) is not cst.Call:
        return False
    callee = dotted_name(item.func) or ""
    if callee.rsplit(".", 1)[-1] not in ("raises", "assertRaises", "assertRaisesRegex"):
        return False
    return _names(item.args[0].value) if item.args else None

