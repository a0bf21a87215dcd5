"""Which expressions in a trace are graph proxies on nnsight <= 0.4, and where Python asks such a
proxy for a plain value (a length, an int, a truth value, items).

Before 0.5 a trace builds a graph: a module's `.output`/`.input` is a proxy, and so is everything
computed from it in the trace (an attribute such as `.shape`, an index, a method call such as
`.sum()`, `.item()` or `.tolist()`, arithmetic, a comparison). A name is a proxy where its last
binding in the trace is; in a session's body, where its last binding in the session is (a value
saved in one of its traces stays a proxy until the session ends). A list or tuple of proxies is not
one, nor is a plain function's result.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, Optional, Set

import libcst as cst

from nnsight_lint.analysis.flow import binding
from nnsight_lint.analysis.model import Event, EventKind, FileModel

_VALUE_CALLS = {"len": "len", "int": "int", "float": "float", "bool": "bool", "range": "range"}
_NOT_VALUES = (cst.Is, cst.IsNot, cst.In, cst.NotIn)


@dataclass(frozen=True)
class ValueUse:
    """Python asks a proxy for a plain value: `form` is what asks ("len", "int", "float", "bool",
    "range", "if", "while", "assert", "ternary", "and/or", "not", "in", "for", "comprehension",
    "unpack"); `node` is where it is written; `in_if` whether it is inside an `if`/`elif` test
    (where nnsight 0.4 asks for the truth value from the `if` statement itself)."""

    form: str
    node: cst.CSTNode
    proxy: cst.BaseExpression
    in_if: bool = False


class Proxies:
    def __init__(self, model: FileModel) -> None:
        self.model = model
        self._accesses: Set[int] = set()
        self._reads: Dict[int, Event] = {}
        self._bindings: Dict[int, bool] = {}
        for event in model.events:
            if event.where.trace is None and event.where.session is None:
                continue
            if event.kind is EventKind.ACCESS:
                self._accesses.add(id(event.node))
            elif event.kind is EventKind.READ:
                self._reads[id(event.node)] = event

    def is_proxy(self, node: cst.CSTNode, depth: int = 0) -> bool:
        if depth > 20:
            return False
        if isinstance(node, cst.Name):
            read = self._reads.get(id(node))
            if read is None:
                return False
            bound = binding(self.model, read.name, read, "trace" if read.where.trace is not None else "session")
            if bound is None or bound.value is None or not bound.from_model:
                return False
            if id(bound) not in self._bindings:
                self._bindings[id(bound)] = False  # a name bound from itself
                self._bindings[id(bound)] = self.is_proxy(bound.value, depth + 1)
            return self._bindings[id(bound)]
        if isinstance(node, cst.Attribute):
            return id(node) in self._accesses or self.is_proxy(node.value, depth + 1)
        if isinstance(node, cst.Subscript):
            return self.is_proxy(node.value, depth + 1)
        if isinstance(node, cst.Call):
            return isinstance(node.func, cst.Attribute) and self.is_proxy(node.func.value, depth + 1)
        if isinstance(node, cst.BinaryOperation):
            return self.is_proxy(node.left, depth + 1) or self.is_proxy(node.right, depth + 1)
        if isinstance(node, cst.UnaryOperation):
            return not isinstance(node.operator, cst.Not) and self.is_proxy(node.expression, depth + 1)
        if isinstance(node, cst.Comparison):
            if any(isinstance(c.operator, _NOT_VALUES) for c in node.comparisons):
                return False
            return self.is_proxy(node.left, depth + 1) or any(self.is_proxy(c.comparator, depth + 1)
                                                                for c in node.comparisons)
        return False


def value_uses(model: FileModel) -> Iterator[ValueUse]:
    """Every place in a trace or session body where Python asks a proxy for a plain value, once each
    (nested functions and classes are not walked: they run where they are called)."""
    proxies = Proxies(model)
    seen: Set[int] = set()
    for block in [t.node for t in model.traces] + [s.node for s in model.sessions]:
        finder = _Finder(proxies)
        for statement in block.body.body:
            statement.visit(finder)
        for use in finder.found:
            if id(use.node) not in seen:
                seen.add(id(use.node))
                yield use


class _Finder(cst.CSTVisitor):
    def __init__(self, proxies: Proxies) -> None:
        self.proxies = proxies
        self.found = []
        self._in_if = 0  # depth of `if` tests being walked

    def _use(self, form: str, node: cst.CSTNode, proxy: Optional[cst.BaseExpression]) -> None:
        if proxy is not None and self.proxies.is_proxy(proxy):
            self.found.append(ValueUse(form, node, proxy, self._in_if > 0))

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in _VALUE_CALLS:
            for arg in node.args:
                if arg.star == "" and self.proxies.is_proxy(arg.value):
                    self.found.append(ValueUse(_VALUE_CALLS[node.func.value], node, arg.value, self._in_if > 0))
                    break

    def visit_If(self, node: cst.If) -> None:
        self._use("if", node.test, node.test)

    def visit_If_test(self, node: cst.If) -> None:
        self._in_if += 1

    def leave_If_test(self, node: cst.If) -> None:
        self._in_if -= 1

    def visit_While(self, node: cst.While) -> None:
        self._use("while", node.test, node.test)

    def visit_Assert(self, node: cst.Assert) -> None:
        self._use("assert", node.test, node.test)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._use("ternary", node.test, node.test)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._use("and/or", node.left, node.left)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            self._use("not", node, node.expression)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        for target in node.comparisons:
            if isinstance(target.operator, (cst.In, cst.NotIn)):
                self._use("in", node, target.comparator)

    def visit_For(self, node: cst.For) -> None:
        self._use("for", node.iter, node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._use("comprehension", node.iter, node.iter)

    def visit_Assign(self, node: cst.Assign) -> None:
        if any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets):
            self._use("unpack", node.targets[0].target, node.value)
