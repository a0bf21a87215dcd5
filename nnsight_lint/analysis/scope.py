"""What names mean in one scope: imports (for `torch.autograd.grad` under any alias), names bound
exactly once to a literal (`keep = False`), and the functions a trace may call.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import libcst as cst

from nnsight_lint.analysis.model import CallKind
from nnsight_lint.analysis.tree import statement_blocks

_UNSET = object()


def dotted_name(node: cst.BaseExpression) -> Optional[str]:
    """`a.b.c` as a string, or None when the expression is not a plain dotted name."""
    if type(node) is cst.Name:
        return node.value
    if type(node) is cst.Attribute:
        head = dotted_name(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


@dataclass
class Scope:
    imports: Dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    literals: Dict[str, object] = field(default_factory=dict)  # name -> value node, or _UNSET if rebound
    functions: Dict[str, cst.FunctionDef] = field(default_factory=dict)
    methods: Dict[str, cst.FunctionDef] = field(default_factory=dict)  # of the class, for `self.m()`
    parent: Optional["Scope"] = None

    def qualified(self, node: cst.BaseExpression) -> Optional[str]:
        name = dotted_name(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        scope = self
        while scope is not None:
            if head in scope.imports:
                full = scope.imports[head]
                return f"{full}.{rest}" if rest else full
            scope = scope.parent
        return name

    def literal(self, name: str) -> Optional[cst.BaseExpression]:
        """The expression a name is bound to, when it is bound exactly once in its scope."""
        scope = self
        while scope is not None:
            if name in scope.literals:
                value = scope.literals[name]
                return None if value is _UNSET else value
            scope = scope.parent
        return None

    def function(self, name: str) -> Optional[cst.FunctionDef]:
        scope = self
        while scope is not None:
            if name in scope.functions:
                return scope.functions[name]
            scope = scope.parent
        return None

    def is_import(self, name: str) -> bool:
        scope = self
        while scope is not None:
            if name in scope.imports or name in scope.functions:
                return True
            scope = scope.parent
        return False


def backward_kind(call: cst.Call, scope: Scope) -> Optional[CallKind]:
    qualified = scope.qualified(call.func)
    if qualified in ("torch.autograd.grad", "torch.autograd.functional.grad"):
        return CallKind.AUTOGRAD_GRAD
    if qualified == "torch.autograd.backward":
        return CallKind.AUTOGRAD_BACKWARD
    if type(call.func) is cst.Attribute and call.func.attr.value == "backward":
        return CallKind.TENSOR_BACKWARD
    return None


class _ScopeCollector:
    """Fills a Scope from one function or module body, without entering nested scopes."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def statement(self, node: cst.CSTNode) -> None:
        if type(node) is cst.SimpleStatementLine:
            for small in node.body:
                self.small_statement(small)
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            if type(node) is cst.FunctionDef:
                self.scope.functions[node.name.value] = node
            self._bind(node.name.value, _UNSET)
        else:
            if type(node) is cst.For:
                self._bind_all(node.target)
            elif type(node) is cst.With:
                for item in node.items:
                    if item.asname is not None:
                        self._bind_all(item.asname.name)
            for handler in getattr(node, "handlers", ()):
                if handler.name is not None:
                    self._bind_all(handler.name.name)
            for block in statement_blocks(node):
                for statement in block:
                    self.statement(statement)

    def small_statement(self, node: cst.BaseSmallStatement) -> None:
        if type(node) is cst.Import or type(node) is cst.ImportFrom:
            self.scope.imports.update(imported_names(node))
        elif type(node) is cst.Assign:
            for target in node.targets:
                if type(target.target) is cst.Name and len(node.targets) == 1:
                    self._bind(target.target.value, node.value)
                else:
                    self._bind_all(target.target)
        elif type(node) is cst.AnnAssign:
            if type(node.target) is cst.Name and node.value is not None:
                self._bind(node.target.value, node.value)
        elif type(node) is cst.AugAssign:
            self._bind_all(node.target)

    def _bind_all(self, target: cst.CSTNode) -> None:
        for name in target_names(target):
            self._bind(name, _UNSET)

    def _bind(self, name: str, value) -> None:
        self.scope.literals[name] = _UNSET if name in self.scope.literals else value


def imported_names(node: cst.BaseSmallStatement) -> Iterator[Tuple[str, str]]:
    """(local name, qualified name) for each name an `import` or `from ... import` binds (`import
    a.b` binds `a`); none for a relative or star import, or another statement."""
    if type(node) is cst.Import:
        for alias in node.names:
            full = dotted_name(alias.name)
            if alias.asname is not None:
                yield alias.asname.name.value, full
            else:
                head = full.split(".")[0]
                yield head, head
    elif type(node) is cst.ImportFrom:
        if node.relative or node.module is None or type(node.names) is cst.ImportStar:
            return
        module = dotted_name(node.module)
        for alias in node.names:
            name = dotted_name(alias.name)
            yield (alias.asname.name.value if alias.asname is not None else name), f"{module}.{name}"


def target_names(node: cst.CSTNode) -> List[str]:
    if type(node) is cst.Name:
        return [node.value]
    if isinstance(node, (cst.Tuple, cst.List)):
        return [name for element in node.elements for name in target_names(element.value)]
    if type(node) is cst.StarredElement:
        return target_names(node.value)
    return []


def collect_scope(body: Sequence[cst.CSTNode], parent: Optional[Scope] = None, params=None) -> Scope:
    scope = Scope(parent=parent)
    collector = _ScopeCollector(scope)
    for param in params or ():
        scope.literals[param] = _UNSET
    for statement in body:
        collector.statement(statement)
    return scope


def function_params(node: cst.FunctionDef) -> List[cst.Param]:
    params = node.params
    out = list(params.posonly_params) + list(params.params)
    if type(params.star_arg) is cst.Param:
        out.append(params.star_arg)
    out += list(params.kwonly_params)
    if params.star_kwarg is not None:
        out.append(params.star_kwarg)
    return out
