"""What names mean in one scope: imports (for `torch.autograd.grad` under any alias), names bound
exactly once to a literal (`keep = False`), and the functions a trace may call.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

import libcst as cst

from nnsight_lint.analysis.model import CallKind

_UNSET = object()


def dotted_name(node: cst.BaseExpression) -> Optional[str]:
    """`a.b.c` as a string, or None when the expression is not a plain dotted name."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
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
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "backward":
        return CallKind.TENSOR_BACKWARD
    return None


class _ScopeCollector(cst.CSTVisitor):
    """Fills a Scope from one function or module body, without entering nested scopes."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.scope.functions[node.name.value] = node
        self._bind(node.name.value, _UNSET)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._bind(node.name.value, _UNSET)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted_name(alias.name)
            if alias.asname is not None:
                self.scope.imports[alias.asname.name.value] = full
            else:
                head = full.split(".")[0]
                self.scope.imports[head] = head

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        module = dotted_name(node.module)
        for alias in node.names:
            local = alias.asname.name.value if alias.asname is not None else alias.name.value
            self.scope.imports[local] = f"{module}.{dotted_name(alias.name)}"

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._bind(target.target.value, node.value if len(node.targets) == 1 else _UNSET)
            else:
                for name in _target_names(target.target):
                    self._bind(name, _UNSET)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name) and node.value is not None:
            self._bind(node.target.value, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        for name in _target_names(node.target):
            self._bind(name, _UNSET)

    def visit_For(self, node: cst.For) -> None:
        for name in _target_names(node.target):
            self._bind(name, _UNSET)

    def visit_AsName(self, node: cst.AsName) -> None:
        for name in _target_names(node.name):
            self._bind(name, _UNSET)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        for name in _target_names(node.target):
            self._bind(name, _UNSET)

    def _bind(self, name: str, value) -> None:
        self.scope.literals[name] = _UNSET if name in self.scope.literals else value


def _target_names(node: cst.CSTNode) -> List[str]:
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, (cst.Tuple, cst.List)):
        return [name for element in node.elements for name in _target_names(element.value)]
    if isinstance(node, cst.StarredElement):
        return _target_names(node.value)
    return []


def collect_scope(body: Sequence[cst.CSTNode], parent: Optional[Scope] = None, params=None) -> Scope:
    scope = Scope(parent=parent)
    collector = _ScopeCollector(scope)
    for param in params or ():
        scope.literals[param] = _UNSET
    for statement in body:
        statement.visit(collector)
    return scope


def function_params(node: cst.FunctionDef) -> List[cst.Param]:
    params = node.params
    out = list(params.posonly_params) + list(params.params)
    if isinstance(params.star_arg, cst.Param):
        out.append(params.star_arg)
    out += list(params.kwonly_params)
    if params.star_kwarg is not None:
        out.append(params.star_kwarg)
    return out
