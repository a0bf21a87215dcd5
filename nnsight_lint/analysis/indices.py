"""Which integers an index into a module list can be, when the source says: a literal, a name
bound to one, a `for` over `range(...)` or over a literal list, `len(<module list>)`,
`<model>.config.n_layer` (or `num_hidden_layers`, ...), and `+ - * //` of those.

`index_values(event, known, model)` pairs each non-literal index of a module access's chain with
the values it takes (`"?"` segments of `Event.path`), so NNL402 can say an index is past the end.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from nnsight_lint.analysis.model import Event, EventKind, FileModel
from nnsight_lint.analysis.literals import literal
from nnsight_lint.analysis.scope import dotted_name

_LAYER_COUNTS = frozenset({"n_layer", "n_layers", "num_hidden_layers", "num_layers"})
_MAX = 4096  # values beyond this many are not enumerated


def chain_indices(node: cst.CSTNode) -> List[Optional[cst.BaseExpression]]:
    """The segments of an attribute/subscript chain from its root name, in order: None for an
    attribute, the index expression for a subscript."""
    found: List[Optional[cst.BaseExpression]] = []
    while True:
        kind = type(node)
        if kind is cst.Attribute:
            found.append(None)
            node = node.value
        elif kind is cst.Subscript:
            element = node.slice[0].slice if len(node.slice) == 1 else None
            found.append(element.value if type(element) is cst.Index else None)
            node = node.value
        else:
            return list(reversed(found))


def index_values(event: Event, known, model: FileModel, path: Tuple[object, ...]) -> Dict[int, Tuple[List[int], str]]:
    """{position in `path`: (the values the index there takes, how the source says so)} for the
    non-literal indices of the access's own chain that the source decides."""
    chain = chain_indices(event.base)
    offset = len(path) - len(chain)
    found: Dict[int, Tuple[List[int], str]] = {}
    for position, node in enumerate(chain):
        at = position + offset
        if node is None or at < 0 or path[at] != "?":
            continue
        values = _values(node, event, known, model, 0)
        if values:
            found[at] = (values, _words(node, event, model))
    return found


def _values(node: cst.CSTNode, event: Event, known, model: FileModel, depth: int) -> Optional[List[int]]:
    if depth > 6:
        return None
    value = literal(node)
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return list(value)
    kind = type(node)
    if kind is cst.Name:
        return _name_values(node.value, event, known, model, depth)
    if kind is cst.Attribute:
        name = dotted_name(node)
        if name is not None and node.attr.value in _LAYER_COUNTS and name.rsplit(".", 2)[-2:-1] == ["config"]:
            receiver = event.where.trace.model if event.where.trace is not None else None
            if receiver is not None and name == f"{receiver}.config.{node.attr.value}":
                return [known.schema.layer_count]
        return None
    if kind is cst.Call and dotted_name(node.func) == "len" and len(node.args) == 1:
        return _length(node.args[0].value, event, known)
    if kind is cst.Call and dotted_name(node.func) == "range":
        bounds = [_values(a.value, event, known, model, depth + 1) for a in node.args if a.keyword is None]
        if not bounds or len(bounds) > 3 or any(b is None or len(b) != 1 for b in bounds):
            return None
        numbers = [b[0] for b in bounds]
        values = range(*numbers) if numbers[-1] != 0 or len(numbers) < 3 else range(0)
        return list(values) if 0 < len(values) <= _MAX else None
    if kind is cst.BinaryOperation:
        left = _values(node.left, event, known, model, depth + 1)
        right = _values(node.right, event, known, model, depth + 1)
        if left is None or right is None or (len(left) > 1 and len(right) > 1):
            return None
        operator = type(node.operator)
        ops = {cst.Add: lambda a, b: a + b, cst.Subtract: lambda a, b: a - b, cst.Multiply: lambda a, b: a * b,
               cst.FloorDivide: lambda a, b: a // b if b else None}
        if operator not in ops:
            return None
        out = [ops[operator](a, b) for a in left for b in right]
        return None if any(v is None for v in out) else out
    if kind is cst.UnaryOperation and type(node.operator) is cst.Minus:
        inner = _values(node.expression, event, known, model, depth + 1)
        return None if inner is None else [-v for v in inner]
    return None


def _length(node: cst.CSTNode, event: Event, known) -> Optional[List[int]]:
    from nnsight_lint.analysis.paths import module_path
    from nnsight_lint.analysis.schemas import relative_path, walk

    path = module_path(node, {})
    if path is None or event.where.trace is None or event.where.trace.model is None:
        return None
    root = node
    while type(root) in (cst.Attribute, cst.Subscript):
        root = root.value
    if type(root) is not cst.Name or root.value != event.where.trace.model.split(".")[0]:
        return None
    relative = relative_path(known, path)
    walked = walk(known, relative) if relative is not None else None
    if walked is None or walked.module is None or walked.module.length is None:
        return None
    return [walked.module.length]


def _name_values(name: str, event: Event, known, model: FileModel, depth: int) -> Optional[List[int]]:
    """The values of a name at `event`: its last binding before it in the same scope."""
    bindings = [b for b in model.named(EventKind.BIND, name)
                if b.order < event.order and b.where.scope is event.where.scope]
    if not bindings:
        return None
    binding = bindings[-1]
    statement = binding.statement
    if type(statement) is cst.For or type(statement) is cst.CompFor:
        if statement.target is not binding.node:
            return None  # `for i, layer in enumerate(...)`: the list decides, no literal
        return _values(statement.iter, event, known, model, depth + 1)
    if binding.value is not None and type(statement) in (cst.Assign, cst.AnnAssign):
        return _values(binding.value, event, known, model, depth + 1)
    return None


def _words(node: cst.CSTNode, event: Event, model: FileModel) -> str:
    """How the source says it, for the message: `i` in `range(13)`."""
    text = model.module.code_for_node(node)
    if type(node) is cst.Name:
        bindings = [b for b in model.named(EventKind.BIND, node.value)
                    if b.order < event.order and b.where.scope is event.where.scope]
        statement = bindings[-1].statement if bindings else None
        if type(statement) in (cst.For, cst.CompFor):
            return f"`{text}` in `{model.module.code_for_node(statement.iter)}`"
        if bindings and bindings[-1].value is not None:
            return f"`{text} = {model.module.code_for_node(bindings[-1].value)}`"
    return f"`{text}`"
