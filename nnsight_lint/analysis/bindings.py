"""One file's bindings, for following a model through the source: names per scope, `self.x` per
class, functions, imports, and the trace-like calls with the defs around them (`Index`), and what a
use of a name sees (`binding_of`: the last binding before it, unless branches disagree)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import libcst as cst

from nnsight_lint.analysis.literals import code_of, literal
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.tree import body_of, children

RECEIVER_CALLS = frozenset({"trace", "generate", "scan", "session"})
_FIXTURES = frozenset({"pytest.fixture", "fixture", "pytest_asyncio.fixture"})


@dataclass
@dataclass
class Binding:
    value: Optional[cst.BaseExpression]  # None: bound by something we do not follow (for, with, except)
    order: int
    conditional: bool  # inside an if / loop / try / match of its scope
    stack: Tuple[cst.CSTNode, ...]  # the defs and classes around it, outermost first


class Index:
    """The bindings of one file: names per scope, `self.x` per class, functions, imports, and the
    receivers of trace-like calls with the defs around them."""

    def __init__(self, module: cst.Module, path: Optional[str]) -> None:
        self.module = module
        self.path = path
        self.names: Dict[Tuple[int, str], List[Binding]] = {}  # (id(scope node) or 0, name)
        self.attributes: Dict[Tuple[int, str], List[Binding]] = {}  # (id(class), attr)
        self.functions: Dict[Tuple[int, str], cst.FunctionDef] = {}
        self.imports: Dict[str, Tuple[str, int, str]] = {}  # local -> (module, level, name or "")
        self.qualified: Dict[str, str] = {}  # local -> qualified (absolute imports)
        self.classes: Dict[str, cst.ClassDef] = {}
        self.parents: Dict[int, Tuple[cst.CSTNode, ...]] = {}  # id(def) -> defs and classes around it
        self.uses: List[Tuple[cst.Call, Tuple[cst.CSTNode, ...], int]] = []  # trace-like calls
        self.calls: Dict[str, List[Tuple[cst.Call, Tuple[cst.CSTNode, ...], int]]] = {}  # callee name -> calls
        self.mutated: set = set()  # (id(scope), name) whose attributes are assigned (`config.n_layer = 4`)
        self._order = 0
        self._block(module.body, (), False)

    def _next(self) -> int:
        self._order += 1
        return self._order

    def _scope(self, stack) -> int:
        for node in reversed(stack):
            if type(node) is cst.FunctionDef:
                return id(node)
        return 0

    def _block(self, statements: Sequence[cst.CSTNode], stack, conditional: bool) -> None:
        for statement in statements:
            self._statement(statement, stack, conditional)

    def _statement(self, node: cst.CSTNode, stack, conditional: bool) -> None:
        kind = type(node)
        if kind is cst.SimpleStatementLine:
            for small in node.body:
                self._small(small, stack, conditional)
            return
        if kind is cst.FunctionDef or kind is cst.ClassDef:
            owner = id(stack[-1]) if stack and kind is cst.FunctionDef and type(stack[-1]) is cst.ClassDef else self._scope(stack)
            if kind is cst.FunctionDef:
                self.functions[(owner, node.name.value)] = node
                for decorator in node.decorators:
                    self._expr(decorator.decorator, stack)
                for param in node.params.params + node.params.kwonly_params + node.params.posonly_params:
                    if param.default is not None:
                        self._expr(param.default, stack)
            else:
                if not stack:
                    self.classes[node.name.value] = node
                self._bind(self._scope(stack), node.name.value, None, stack, conditional)
            self.parents[id(node)] = stack
            self._block(body_of(node), stack + (node,), False)
            return
        if kind is cst.With:
            for item in node.items:
                self._expr(item.item, stack)
                if item.asname is not None:
                    for name in _target_names(item.asname.name):
                        self._bind(self._scope(stack), name, None, stack, conditional)
            self._block(body_of(node), stack, conditional)
            return
        if kind is cst.If:
            self._expr(node.test, stack)
            self._block(body_of(node), stack, True)
            if node.orelse is not None:
                self._statement(node.orelse, stack, True) if type(node.orelse) is cst.If else self._block(
                    body_of(node.orelse), stack, True)
            return
        if kind is cst.Else:
            self._block(body_of(node), stack, True)
            return
        if kind is cst.For:
            self._expr(node.iter, stack)
            for name in _target_names(node.target):
                self._bind(self._scope(stack), name, None, stack, True)
        elif kind is cst.While:
            self._expr(node.test, stack)
        for child in children(node):
            if isinstance(child, (cst.IndentedBlock, cst.SimpleStatementSuite)):
                self._block(body_of(node), stack, True)
            elif isinstance(child, (cst.ExceptHandler, cst.ExceptStarHandler, cst.Else, cst.Finally, cst.MatchCase)):
                self._block(body_of(child), stack, True)
            elif type(child) is not cst.Name and isinstance(child, cst.BaseExpression) and kind not in (cst.For, cst.While):
                self._expr(child, stack)

    def _small(self, node: cst.CSTNode, stack, conditional: bool) -> None:
        kind = type(node)
        scope = self._scope(stack)
        if kind is cst.Assign or kind is cst.AnnAssign:
            if node.value is None:
                return
            self._expr(node.value, stack)
            targets = [t.target for t in node.targets] if kind is cst.Assign else [node.target]
            for target in targets:
                if type(target) is cst.Name:
                    self._bind(scope, target.value, node.value, stack, conditional)
                elif type(target) is cst.Attribute and type(target.value) is cst.Name:
                    owner = method_class(stack)
                    if owner is not None and target.value.value == self_name(stack):
                        key = (id(owner), target.attr.value)
                        self.attributes.setdefault(key, []).append(
                            Binding(node.value, self._next(), conditional, stack))
                    else:
                        self.mutated.add((scope, target.value.value))
                else:
                    for name in _target_names(target):
                        self._bind(scope, name, None, stack, conditional)
        elif kind is cst.AugAssign:
            self._expr(node.value, stack)
            for name in _target_names(node.target):
                self._bind(scope, name, None, stack, conditional)
        elif kind is cst.Import:
            for alias in node.names:
                full = dotted_name(alias.name)
                local = alias.asname.name.value if alias.asname is not None else full.split(".")[0]
                self.qualified[local] = full if alias.asname is not None else local
                self.imports[local] = (full if alias.asname is not None else local, 0, "")
        elif kind is cst.ImportFrom:
            if isinstance(node.names, cst.ImportStar):
                return
            module = dotted_name(node.module) if node.module is not None else ""
            level = len(node.relative)
            for alias in node.names:
                name = dotted_name(alias.name)
                local = alias.asname.name.value if alias.asname is not None else name
                self.imports[local] = (module, level, name)
                if not level:
                    self.qualified[local] = f"{module}.{name}"
        else:
            self._expr(node, stack)

    def _bind(self, scope: int, name: str, value, stack, conditional: bool) -> None:
        self.names.setdefault((scope, name), []).append(Binding(value, self._next(), conditional, stack))

    def _expr(self, node: cst.CSTNode, stack) -> None:
        """Record the trace-like calls and the calls by name (for call-site resolution). Only where a
        call can stand for a model or take one: a call's callee chain and arguments, containers,
        conditionals, `await`, `x = y = ...`; not inside subscripts, arithmetic or comprehensions."""
        todo = [node]
        while todo:
            current = todo.pop()
            kind = type(current)
            if kind is cst.Call:
                func = current.func
                if type(func) is cst.Attribute and func.attr.value in RECEIVER_CALLS:
                    self.uses.append((current, stack, self._next()))
                name = dotted_name(func)
                if name is not None:
                    self.calls.setdefault(name.split(".")[-1], []).append((current, stack, self._next()))
                todo.append(func)
                todo.extend(arg.value for arg in current.args)
            elif kind is cst.Attribute:
                todo.append(current.value)
            elif kind in _CONTAINERS:
                todo.extend(element.value for element in current.elements if hasattr(element, "value"))
            elif kind is cst.IfExp:
                todo.extend((current.body, current.orelse))
            elif kind is cst.Await:
                todo.append(current.expression)
            elif (kind is cst.NamedExpr or kind is cst.Expr or kind is cst.Return) and current.value is not None:
                todo.append(current.value)


_CONTAINERS = (cst.Tuple, cst.List, cst.Set, cst.Dict)


def _target_names(node: cst.CSTNode) -> List[str]:
    if type(node) is cst.Name:
        return [node.value]
    if type(node) in (cst.Tuple, cst.List):
        return [n for e in node.elements for n in _target_names(e.value)]
    if type(node) is cst.StarredElement:
        return _target_names(node.value)
    return []


def method_class(stack) -> Optional[cst.ClassDef]:
    """The class whose method the innermost def is (`self.x = ...` in it binds an attribute)."""
    if len(stack) >= 2 and type(stack[-1]) is cst.FunctionDef and type(stack[-2]) is cst.ClassDef:
        return stack[-2]
    return None


def self_name(stack) -> Optional[str]:
    function = stack[-1] if stack and type(stack[-1]) is cst.FunctionDef else None
    if function is None:
        return None
    params = list(function.params.posonly_params) + list(function.params.params)
    return params[0].name.value if params else None


def binding_of(index: Index, name: str, stack, order: int) -> Optional[Tuple[Index, Binding]]:
    """The binding of `name` a use at (`stack`, `order`) sees, when the source decides it."""
    scopes = [id(node) for node in reversed(stack) if type(node) is cst.FunctionDef] + [0]
    for scope in scopes:
        bindings = index.names.get((scope, name))
        if not bindings:
            continue
        chosen = _choose(bindings, order if scope == (scopes[0] if stack else 0) else None)
        return None if chosen is None else (index, chosen)
    return None


def param_default(index: Index, name: str, stack) -> Optional[cst.BaseExpression]:
    for node in reversed(stack):
        if type(node) is cst.FunctionDef:
            for param in params_of(node):
                if param.name.value == name:
                    return param.default
    return None


def index_scope(index: Index, name: str, stack) -> int:
    for node in reversed(stack):
        if type(node) is cst.FunctionDef and index.names.get((id(node), name)):
            return id(node)
    return 0


def params_of(function: cst.FunctionDef) -> List[cst.Param]:
    params = function.params
    return list(params.posonly_params) + list(params.params) + list(params.kwonly_params)


def fixture_name(function: cst.FunctionDef, index: Index) -> Optional[str]:
    for decorator in function.decorators:
        node = decorator.decorator
        call = node if type(node) is cst.Call else None
        name = dotted_name(call.func if call is not None else node)
        if name is None:
            continue
        head = name.split(".")[0]
        qualified = index.qualified.get(head, head) + name[len(head):]
        if qualified in _FIXTURES or name in _FIXTURES:
            if call is not None:
                for arg in call.args:
                    if arg.keyword is not None and arg.keyword.value == "name":
                        value = literal(arg.value)
                        return value if isinstance(value, str) else None
            return function.name.value
    return None


def returns_of(function: cst.FunctionDef) -> Iterator[Tuple[cst.CSTNode, int]]:
    """The `return x` / `yield x` statements of a def (not of defs nested in it), in order."""
    todo = list(reversed(body_of(function)))
    order = 1 << 20
    while todo:
        node = todo.pop()
        order += 1
        if type(node) is cst.SimpleStatementLine:
            for small in node.body:
                if type(small) is cst.Return and small.value is not None:
                    yield small, order
                elif type(small) is cst.Expr and type(small.value) is cst.Yield and small.value.value is not None:
                    yield small.value, order
        elif type(node) not in (cst.FunctionDef, cst.ClassDef):
            todo.extend(reversed([c for c in children(node) if isinstance(c, (cst.BaseStatement, cst.BaseSuite,
                                                                              cst.ExceptHandler, cst.Else, cst.Finally,
                                                                              cst.MatchCase))]))
            if isinstance(node, cst.BaseSuite):
                todo.extend(reversed(list(node.body)))


def _choose(bindings: List[Binding], order: Optional[int]) -> Optional[Binding]:
    """The binding a use sees: the last one before it (`order`; None: the use runs later, e.g. in a
    function, so the last one), unless it is conditional and an earlier one disagrees."""
    before = [b for b in bindings if order is None or b.order < order] or bindings
    last = before[-1]
    if not last.conditional:
        return last
    values = {id(b.value) for b in before if b.value is not None}
    if len(before) == 1 or (len(values) == 1 and all(b.value is not None for b in before)):
        return last
    # several candidates in branches: only when they are the same code (`x = LanguageModel(ID)` twice)
    texts = {code_of(b.value) if b.value is not None else None for b in before}
    return last if len(texts) == 1 and None not in texts else None
