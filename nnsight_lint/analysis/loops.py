"""Loops over a module list inside a trace: `for layer in model.model.layers:` binds one item per
pass, so two reads through `layer` in one pass reach the SAME block (its index is not known, but
it is one index). `LoopItem` stands for that index in a module path."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

import libcst as cst

from nnsight_lint.analysis.flow import last_binding
from nnsight_lint.analysis.model import Event, FileModel
from nnsight_lint.analysis.paths import module_path


@dataclass(frozen=True)
class LoopItem:
    """The item a `for` loop over a module list binds, within one pass (`binding`: its BIND event)."""

    binding: int

    def __str__(self) -> str:
        return "?"


def loop_item_path(model: FileModel, event: Event) -> Optional[Tuple[object, ...]]:
    """An ACCESS's module path with the index of the loop item it reads through replaced by a
    `LoopItem`, when the chain starts at the target of a `for` over a module list that encloses
    the read and the path has no other unknown index. None otherwise."""
    path, base = event.path, event.base
    if path is None or path.count("?") != 1 or event.where.helper:
        return None
    root = base
    while type(root) in (cst.Attribute, cst.Subscript):
        root = root.value
    if type(root) is not cst.Name:
        return None
    suffix = module_path(base, {})
    if suffix is None or "?" in suffix:
        return None
    position = len(path) - len(suffix) - 1
    if position < 0 or path[position] != "?":
        return None
    binding = last_binding(model, root.value, event.order)
    if binding is None or binding.where.trace is not event.where.trace:
        return None
    loop = binding.statement
    if type(loop) is not cst.For or id(loop) not in event.where.loops or not _targets(loop, binding.node):
        return None
    return path[:position] + (LoopItem(id(binding)),) + path[position + 1:]


def _targets(loop: cst.For, name: cst.Name) -> bool:
    """Is `name` the loop's item: `for name in ...` or `for i, name in enumerate(...)`?"""
    target = loop.target
    if target is name:
        return True
    return (
        type(target) is cst.Tuple and len(target.elements) == 2 and target.elements[1].value is name
        and type(loop.iter) is cst.Call and type(loop.iter.func) is cst.Name
        and loop.iter.func.value == "enumerate"
    )


def same_item(a: Tuple[object, ...], b: Tuple[object, ...]):
    """Two paths with their loop items made comparable: the same item at the same place is one
    index (0 in both); otherwise None (the reads may be in different blocks)."""
    items_a = [i for i, s in enumerate(a) if isinstance(s, LoopItem)]
    items_b = [i for i, s in enumerate(b) if isinstance(s, LoopItem)]
    if not items_a and not items_b:
        return a, b
    if items_a != items_b or a[items_a[0]] != b[items_b[0]]:
        return None
    at = items_a[0]
    return a[:at] + (0,) + a[at + 1:], b[:at] + (0,) + b[at + 1:]
