"""Literal values in the source: `literal(node)` is the Python value of a literal expression
(numbers, strings, bools, None, and tuples, lists and dicts of them), `NOT_LITERAL` otherwise;
`code_of(node)` is a node's source text."""
from __future__ import annotations

import libcst as cst

NOT_LITERAL = object()
_EMPTY = cst.Module([])


def code_of(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


def literal(node: cst.CSTNode) -> object:
    """The Python value of a literal expression (numbers, strings, bools, None, tuples, lists,
    dicts of literals); `NOT_LITERAL` otherwise."""
    kind = type(node)
    if kind is cst.Integer:
        return int(node.value.replace("_", ""), 0)
    if kind is cst.Float:
        return float(node.value.replace("_", ""))
    if kind is cst.SimpleString:
        try:
            value = node.evaluated_value
        except Exception:  # noqa: BLE001 - a string libcst cannot evaluate is not a literal to us
            return NOT_LITERAL
        return value if isinstance(value, str) else NOT_LITERAL
    if kind is cst.ConcatenatedString:
        value = node.evaluated_value
        return value if isinstance(value, str) else NOT_LITERAL
    if kind is cst.Name:
        return {"True": True, "False": False, "None": None}.get(node.value, NOT_LITERAL)
    if kind is cst.UnaryOperation and isinstance(node.operator, cst.Minus):
        value = literal(node.expression)
        return -value if isinstance(value, (int, float)) and not isinstance(value, bool) else NOT_LITERAL
    if kind in (cst.Tuple, cst.List):
        items = [literal(e.value) if type(e) is cst.Element else NOT_LITERAL for e in node.elements]
        return NOT_LITERAL if any(i is NOT_LITERAL for i in items) else (tuple(items) if kind is cst.Tuple else items)
    if kind is cst.Dict:
        out = {}
        for element in node.elements:
            if type(element) is not cst.DictElement:
                return NOT_LITERAL
            key, value = literal(element.key), literal(element.value)
            if key is NOT_LITERAL or value is NOT_LITERAL:
                return NOT_LITERAL
            out[key] = value
        return out
    return NOT_LITERAL
