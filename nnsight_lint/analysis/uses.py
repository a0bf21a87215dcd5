"""How the value of a module access (`<module>.output` / `.input`) is used: indexed by an integer
(`[0]`), indexed like a tensor (`[:, -1]`, `[0, -1, :]`), unpacked, an attribute read (`.shape`),
an operand of arithmetic, an argument of a `torch.*` call; directly, or through a name bound to
the access (or to its `.save()`) and read before it is bound again.

Rules that know what the value is (a tensor or a tuple, from the model's schema) judge the use.
Parents are mapped on first use, one statement at a time (`Event.within`, the small statement
or compound header the builder was walking): only the statements a rule asks about are walked.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Dict, List, Optional

import libcst as cst

from nnsight_lint.analysis.model import Event, EventKind, FileModel
from nnsight_lint.analysis.literals import NOT_LITERAL, literal
from nnsight_lint.analysis.tree import NOT_NODES, SEQUENCES, code_fields

_BODIES = frozenset({cst.IndentedBlock, cst.SimpleStatementSuite, cst.Else, cst.ExceptHandler, cst.Finally})
_NOT_TENSOR_ATTRIBUTES = frozenset({"save", "count", "index"})  # what a tuple (and nnsight) answer


@dataclass(frozen=True)
class Use:
    """`kind`: "item" (an integer index `[k]`, `index` set), "slice" (one slice, `[1:]`: a tuple's
    items or a tensor's rows), "tensor-index" (several indices, `...`, `None`), "unpack",
    "attribute" (`name`), "arith" (not a tuple concatenation, `(t,) + x`), "torch-call" (`name`:
    the callee).
    `node` is what a finding points at (the subscript, the attribute, the operation, the call);
    `store` says the use is an assignment target; `via` the name the value went through, if any."""

    kind: str
    node: cst.CSTNode
    access: Event
    index: Optional[int] = None
    name: str = ""
    store: bool = False
    via: Optional[str] = None
    saved: bool = False  # through a name bound to the access's `.save()`


class Uses:
    def __init__(self, model: FileModel) -> None:
        self.model = model
        self._parents: Dict[int, cst.CSTNode] = {}
        self._mapped: set = set()  # the module-level statements whose parents are mapped
        self._reads_binds: Optional[Dict[str, List[Event]]] = None  # name -> its READ and BIND events, in order
        self._indexed = 0

    def parent(self, node: cst.CSTNode, top: Optional[cst.CSTNode] = None) -> Optional[cst.CSTNode]:
        """The node's parent; `top` is the statement it is in (`Event.within`), mapped on first use."""
        if top is not None and id(top) not in self._mapped:
            self._mapped.add(id(top))
            stack, parents = [top], self._parents
            while stack:  # `tree.children` inlined: this loop visits every node of the statement
                current = stack.pop()
                for field in code_fields(type(current)):
                    value = getattr(current, field)
                    for child in value if type(value) in SEQUENCES else (value,):
                        kind = type(child)
                        if kind in NOT_NODES or kind in _BODIES:
                            continue  # a compound's body: its statements map themselves
                        parents[id(child)] = current
                        stack.append(child)
        return self._parents.get(id(node))

    def of(self, access: Event) -> List[Use]:
        """The uses of the value of an ACCESS event, directly and through names bound to it."""
        found: List[Use] = []
        node = access.node
        direct = self._use(node, access, None, access.within)
        if direct is not None:
            found.append(direct)
        for name, binding, saved in self._bound_names(node, access.within):
            for read in self._reads_after(binding, name):
                use = self._use(read.node, access, name, read.within)
                if use is not None:
                    found.append(replace(use, saved=saved))
        return found

    def _use(self, node: cst.CSTNode, access: Event, via: Optional[str], top) -> Optional[Use]:
        parent = self.parent(node, top)
        kind = type(parent)
        if kind is cst.Subscript and parent.value is node:
            store = self._is_target(parent, top)
            elements = parent.slice
            if len(elements) == 1 and type(elements[0].slice) is cst.Slice:
                return Use("slice", parent, access, store=store, via=via)
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
            if kind is cst.BinaryOperation and type(parent.operator) is cst.Add and cst.Tuple in (
                    type(parent.left), type(parent.right)):
                return None  # `(t,) + x`: joins tuples, the way nnsight's docs swap a block's first item
            return Use("arith", parent, access, via=via)
        if kind is cst.Arg and parent.value is node and parent.keyword is None and not parent.star:
            call = self.parent(parent, top)
            if type(call) is cst.Call:
                callee = access.where.scope.qualified(call.func) or ""
                if callee.startswith("torch.") and callee not in ("torch.save",):
                    return Use("torch-call", call, access, name=callee, via=via)
            return None
        if kind is cst.Assign and parent.value is node and len(parent.targets) == 1:
            if type(parent.targets[0].target) in (cst.Tuple, cst.List):
                return Use("unpack", parent.targets[0].target, access, via=via)
        return None

    def _is_target(self, node: cst.CSTNode, top) -> bool:
        parent = self.parent(node, top)
        return (type(parent) is cst.AssignTarget and parent.target is node) or (
            type(parent) is cst.AugAssign and parent.target is node)

    def _bound_names(self, node: cst.CSTNode, top):
        """`h = <access>` or `h = <access>.save()`: the name, its BIND event, whether saved."""
        value = node
        parent = self.parent(value, top)
        saved = False
        if type(parent) is cst.Attribute and parent.attr.value == "save":
            call = self.parent(parent, top)
            if type(call) is cst.Call and call.func is parent and not call.args:
                value, parent, saved = call, self.parent(call, top), True
        if type(parent) is cst.Assign and parent.value is value and len(parent.targets) == 1:
            target = parent.targets[0].target
            if type(target) is cst.Name:
                for event in self.model.named(EventKind.BIND, target.value):
                    if event.node is target:
                        yield target.value, event, saved

    def _reads_after(self, binding: Event, name: str):
        """The reads of `name` after `binding` in the same scope, until it is bound again."""
        # Indexed once (again if events were added, as `FileModel.named` does): scanning every
        # event per binding was the cost.
        if self._reads_binds is None or self._indexed != len(self.model.events):
            self._reads_binds, self._indexed = {}, len(self.model.events)
            for event in self.model.events:
                if event.kind is EventKind.READ or event.kind is EventKind.BIND:
                    self._reads_binds.setdefault(event.name, []).append(event)
        for event in self._reads_binds.get(name, ()):
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
