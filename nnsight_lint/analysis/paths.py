"""Module paths: `model.transformer.h[1]` as ("transformer", "h", 1), and whether a chain reads a
module's `.output`/`.input` (then it names a tensor, not a module)."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from nnsight_lint.analysis.scope import dotted_name

# `.output`/`.input` on a module: the invoke waits until the forward reaches it.
ACCESS_KIND = {"output": "output", "outputs": "output", "input": "input", "inputs": "input"}


def is_access(node: cst.CSTNode) -> bool:
    """Does the chain read a module's `.output`/`.input` somewhere (then it is a tensor, not a module)?"""
    while True:
        kind = type(node)
        if kind is cst.Attribute:
            if node.attr.value in ACCESS_KIND:
                return True
            node = node.value
        elif kind is cst.Subscript:
            node = node.value
        else:
            return kind is not cst.Name


def unwrap_iteration(node: cst.CSTNode) -> cst.CSTNode:
    if type(node) is cst.Call and dotted_name(node.func) in ("enumerate", "reversed") and node.args:
        return node.args[0].value
    return node


def module_path(node: cst.CSTNode, submodules: Dict[str, Tuple[object, ...]]) -> Optional[Tuple[object, ...]]:
    """`model.transformer.h[1]` as ("transformer", "h", 1); "?" for an index not known statically.

    The root name is taken for the model itself unless it names a submodule bound earlier.
    None when the expression is not a chain of attributes and subscripts on a name.
    """
    path: List[object] = []
    value = node
    while True:
        if type(value) is cst.Attribute:
            if value.attr.value in ACCESS_KIND:
                return None
            path.append(value.attr.value)
            value = value.value
        elif type(value) is cst.Subscript:
            index = value.slice[0].slice if len(value.slice) == 1 else None
            path.append(literal_index(index.value) if type(index) is cst.Index else "?")
            value = value.value
        elif type(value) is cst.Name:
            return submodules.get(value.value, ()) + tuple(reversed(path))
        else:
            return None


def literal_index(node: cst.CSTNode) -> object:
    """`3` -> 3, `-1` -> -1; "?" for anything else."""
    if type(node) is cst.Integer:
        return int(node.value, 0)
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus and type(node.expression) is cst.Integer:
        return -int(node.expression.value, 0)
    return "?"


def iterated_module_path(node: cst.CSTNode, submodules) -> Optional[Tuple[object, ...]]:
    """`for layer in model.transformer.h` (or `enumerate(...)` of it): one item of a module list."""
    if type(node) is cst.Call and dotted_name(node.func) in ("enumerate", "reversed") and node.args:
        node = node.args[0].value
    path = module_path(node, submodules)
    return None if path is None else path + ("?",)
