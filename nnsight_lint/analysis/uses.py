"""How the value of a module access (`<module>.output` / `.input`) is used: indexed by an integer
(`[0]`), indexed like a tensor (`[:, -1]`, `[0, -1, :]`), unpacked, an attribute read (`.shape`),
an operand of arithmetic, an argument of a `torch.*` call; directly, or through a name bound to
the access (or to its `.save()`) and read before it is bound again.

Rules that know what the value is (a tensor or a tuple, from the model's schema) judge the use.
Built on first use from one walk of the file's tree (a parent map), only when a rule asks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

import libcst as cst

from nnsight_lint.analysis.model import Event, EventKind, FileModel
from nnsight_lint.analysis.models import NOT_LITERAL, literal
from nnsight_lint.analysis.tree import children

_NOT_TENSOR_ATTRIBUTES = frozenset({"save", "count", "index"})  # what a tuple (and nnsight) answer


@dataclass(frozen=True)
class Use:
    """`kind`: "item" (an integer index `[k]`, `index` set), "tensor-index" (slices, several indices,
    `...`, `None`), "unpack", "attribute" (`name`), "arith", "torch-call" (`name`: the callee).
    `node` is what a finding points at (the subscript, the attribute, the operation, the call);
    `store` says the use is an assignment target; `via` the name the value went through, if any."""

    kind: str
    node: cst.CSTNode
    access: Event
    index: Optional[int] = None
    name: str = ""
    store: bool = False
    via: Optional[str] = None


class Uses:
    def __init__(self, model: FileModel) -> None:
        self.model = model
        self._parents: Dict[int, cst.CSTNode] = {}
        stack = [model.module]
        while stack:
            node = stack.pop()
            for child in children(node):
                self._parents[id(child)] = node
                stack.append(child)

    def parent(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        return self._parents.get(id(node))

    def of(self, access: Event) -> List[Use]:
        """The uses of the value of an ACCESS event, directly and through names bound to it."""
        found: List[Use] = []
        node = access.node
        direct = self._use(node, access, None)
        if direct is not None:
            found.append(direct)
        for name, binding in self._bound_names(node):
            for read in self._reads_after(binding, name):
                use = self._use(read.node, access, name)
                if use is not None:
                    found.append(use)
        return found

    def _use(self, node: cst.CSTNode, access: Event, via: Optional[str]) -> Optional[Use]:
        parent = self.parent(node)
        kind = type(parent)
        if kind is cst.Subscript and parent.value is node:
            store = self._is_target(parent)
            elements = parent.slice
            if len(elements) == 1 and type(elements[0].slice) is cst.Index:
                value = literal(elements[0].slice.value)
                if isinstance(value, int) and not isinstance(value, bool):
                    return Use("item", parent, access, index=value, store=store, via=via)
                if value is NOT_LITERAL and type(elements[0].slice.value) not in (cst.Ellipsis, cst.Tuple):
                    return None  # `[k]` with a name: an int or a tensor of indices, the source cannot say
            return Use("tensor-index", parent, access, store=store, via=via)
        if kind is cst.Attribute and parent.value is node:
            if parent.attr.value in _NOT_TENSOR_ATTRIBUTES or parent.attr.value.startswith("__"):
                return None
            return Use("attribute", parent, access, name=parent.attr.value, via=via)
        if kind is cst.BinaryOperation or kind is cst.UnaryOperation:
            return Use("arith", parent, access, via=via)
        if kind is cst.Arg and parent.value is node and parent.keyword is None and not parent.star:
            call = self.parent(parent)
            if type(call) is cst.Call:
                callee = access.where.scope.qualified(call.func) or ""
                if callee.startswith("torch.") and callee not in ("torch.save",):
                    return Use("torch-call", call, access, name=callee, via=via)
            return None
        if kind is cst.Assign and parent.value is node and len(parent.targets) == 1:
            if type(parent.targets[0].target) in (cst.Tuple, cst.List):
                return Use("unpack", parent.targets[0].target, access, via=via)
        return None

    def _is_target(self, node: cst.CSTNode) -> bool:
        parent = self.parent(node)
        return (type(parent) is cst.AssignTarget and parent.target is node) or (
            type(parent) is cst.AugAssign and parent.target is node)

    def _bound_names(self, node: cst.CSTNode):
        """`h = <access>` or `h = <access>.save()`: the name and its BIND event."""
        value = node
        parent = self.parent(value)
        if type(parent) is cst.Attribute and parent.attr.value == "save":
            call = self.parent(parent)
            if type(call) is cst.Call and call.func is parent and not call.args:
                value, parent = call, self.parent(call)
        if type(parent) is cst.Assign and parent.value is value and len(parent.targets) == 1:
            target = parent.targets[0].target
            if type(target) is cst.Name:
                for event in self.model.named(EventKind.BIND, target.value):
                    if event.node is target:
                        yield target.value, event

    def _reads_after(self, binding: Event, name: str):
        """The reads of `name` after `binding` in the same scope, until it is bound again."""
        for event in self.model.events:
            if event.order <= binding.order or event.where.scope is not binding.where.scope:
                continue
            if event.kind is EventKind.BIND and event.name == name:
                return
            if event.kind is EventKind.READ and event.name == name:
                yield event


def uses(model: FileModel) -> Uses:
    """The file's `Uses`, built once per model."""
    found = getattr(model, "_uses", None)
    if found is None:
        found = Uses(model)
        object.__setattr__(model, "_uses", found)
    return found
