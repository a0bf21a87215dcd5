"""Builds the FileModel: finds every trace and walks it the way nnsight runs it.

A trace's invokes are walked in source order. Each walk keeps, per invoke, the last module the
invoke's code waited for (that is when its backward runs), which names carry which autograd graph
(`Origin`s), and the branches and loops around each statement. Helper functions defined in the
file are walked at each call site, as if inlined.
"""
from __future__ import annotations

import builtins
import itertools
from dataclasses import dataclass, replace
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

import libcst as cst

from nnsight_lint.analysis.model import (
    TRACE,
    BackwardCall,
    CallKind,
    FileModel,
    ModuleAccess,
    Origin,
    Retains,
    Retention,
    Trace,
)
from nnsight_lint.analysis.tree import body_of, children, statement_blocks
from nnsight_lint.analysis.scope import (
    Scope,
    backward_kind,
    collect_scope,
    dotted_name,
    function_params,
)

# `.output`/`.input` on a module: the invoke waits until the forward reaches it.
_ACCESS_KIND = {"output": "output", "outputs": "output", "input": "input", "inputs": "input"}
_BUILTINS = frozenset(dir(builtins))
_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp})
_DEFINITIONS = frozenset({cst.Lambda, cst.FunctionDef, cst.ClassDef})
_NO_GRAPH_NODES = frozenset(
    {cst.Lambda, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float, cst.Imaginary}
)
_NO_GRAPH: FrozenSet[Origin] = frozenset()
_TRACE_ONLY = frozenset({TRACE})
Env = Dict[str, FrozenSet[Origin]]


def build_file_model(module: cst.Module, trace_names: Iterable[str] = ("trace",)) -> FileModel:
    builder = _Builder(module, frozenset(trace_names))
    scope = builder.scope_of(module.body, None)
    builder.scan(module.body, scope, {})
    return builder.model


@dataclass
class _Invoke:
    index: int
    waits_for: Optional[ModuleAccess] = None


@dataclass(frozen=True)
class _Where:
    """Where a statement of a trace runs: its scope, invoke, and surrounding branches and loops."""

    scope: Scope
    invoke: _Invoke
    branches: Tuple[Tuple[int, int], ...] = ()
    loops: Tuple[int, ...] = ()
    in_backward: bool = False  # inside `with loss.backward():` the forward does not advance


class _Builder:
    def __init__(self, module: cst.Module, trace_names: FrozenSet[str]) -> None:
        self.model = FileModel(module)
        self.trace_names = trace_names
        self._scopes: Dict[int, Scope] = {}  # id(function node) -> its scope
        self._defining: Dict[int, Scope] = {}  # id(function node) -> scope it is defined in
        self._without_grad = 0  # inside `with torch.no_grad():` or a `@torch.no_grad()` function

    # -- scopes outside traces ---------------------------------------------------------------

    def scope_of(self, body: Sequence[cst.CSTNode], parent: Optional[Scope], params=(), methods=None) -> Scope:
        scope = collect_scope(body, parent, params)
        if methods is not None:
            scope.methods = methods
        for function in scope.functions.values():
            self._defining[id(function)] = scope
        return scope

    def function_scope(self, function: cst.FunctionDef, methods=None) -> Scope:
        key = id(function)
        if key not in self._scopes:
            params = [p.name.value for p in function_params(function)]
            body = function.body.body if isinstance(function.body, cst.IndentedBlock) else [function.body]
            parent = self._defining.get(key)
            inherited = methods if methods is not None else (parent.methods if parent else None)
            self._scopes[key] = self.scope_of(body, parent, params, inherited)
        return self._scopes[key]

    def scan(self, body: Sequence[cst.CSTNode], scope: Scope, env: Env) -> None:
        """Walk statements outside any trace, keeping track of tensors bound before a trace."""
        for statement in body:
            self._scan_statement(statement, scope, env)

    def _scan_statement(self, statement: cst.CSTNode, scope: Scope, env: Env) -> None:
        if isinstance(statement, cst.FunctionDef):
            without_grad = any(_disables_grad(d.decorator, scope) for d in statement.decorators)
            self._scan_function(statement, self.function_scope(statement), without_grad)
        elif isinstance(statement, cst.ClassDef):
            class_body = body_of(statement)
            methods = {s.name.value: s for s in class_body if isinstance(s, cst.FunctionDef)}
            for method in methods.values():
                self._defining[id(method)] = scope
                without_grad = any(_disables_grad(d.decorator, scope) for d in method.decorators)
                self._scan_function(method, self.function_scope(method, methods), without_grad)
        elif isinstance(statement, cst.With) and self._is_trace(statement):
            if not self._without_grad:  # no graph at all there: backwards fail another way
                _TraceWalker(self, statement, dict(env)).run(scope)
        elif isinstance(statement, cst.With) and any(_disables_grad(i.item, scope) for i in statement.items):
            self._without_grad += 1
            self.scan(body_of(statement), scope, env)
            self._without_grad -= 1
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
                    targets = small.targets if isinstance(small, cst.Assign) else [small]
                    origins = _origins(small.value, env, scope, {})
                    for target in targets:
                        _bind(env, target.target, small.value, origins, ())
        else:
            for block in statement_blocks(statement):
                self.scan(block, scope, env)

    def _scan_function(self, function: cst.FunctionDef, scope: Scope, without_grad: bool) -> None:
        self._without_grad += without_grad
        self.scan(body_of(function), scope, {})
        self._without_grad -= without_grad

    def _is_trace(self, statement: cst.With) -> bool:
        return any(_call_attr(item.item) in self.trace_names for item in statement.items)


class _TraceWalker:
    """Walks one trace's body in the order nnsight runs it and records its backward calls."""

    def __init__(self, builder: _Builder, node: cst.With, env: Env) -> None:
        self.builder = builder
        self.trace = Trace(node)
        self.env = env
        self._order = itertools.count()
        self._invokes = itertools.count(1)
        self._inlining: List[int] = []
        self._call_results: Dict[int, FrozenSet[Origin]] = {}
        self._returned: List[FrozenSet[Origin]] = []  # what the helper being inlined returns
        self._submodules: Dict[str, Tuple[object, ...]] = {}  # `layer = model.transformer.h[3]`

    def run(self, scope: Scope) -> None:
        where = _Where(scope, _Invoke(0))  # the trace body itself is the implicit invoke 0
        for item in self.trace.node.items:
            if _call_attr(item.item) not in self.builder.trace_names:
                self.expr(item.item, where)
        self.builder.model.traces.append(self.trace)
        self.block(body_of(self.trace.node), where)
        if next(self._invokes) > 1:
            # With explicit invokes, the trace body runs before the forward: it cannot reach the
            # model's graph, so its backwards share nothing with the invokes'.
            for call in self.trace.backwards:
                if call.invoke == 0:
                    call.origins = call.origins - {TRACE}

    # -- statements ----------------------------------------------------------------------------

    def block(self, statements: Sequence[cst.CSTNode], where: _Where) -> None:
        for statement in statements:
            self.statement(statement, where)

    def statement(self, node: cst.CSTNode, where: _Where) -> None:
        if isinstance(node, cst.SimpleStatementLine):
            for small in node.body:
                self.small_statement(small, where)
        elif isinstance(node, cst.With):
            self.with_statement(node, where)
        elif isinstance(node, cst.If):
            self.if_chain(node, where)
        elif isinstance(node, (cst.For, cst.While)):
            self.loop(node, where)
        elif isinstance(node, (cst.Try, cst.TryStar)):
            self.try_statement(node, where)
        elif isinstance(node, cst.Match):
            self.expr(node.subject, where)
            for arm, case in enumerate(node.cases):
                self.block(body_of(case), _in_arm(where, node, arm))
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return  # a definition runs nothing; calls to it are walked where they happen
        else:
            for block in statement_blocks(node):
                self.block(block, where)

    def small_statement(self, node: cst.BaseSmallStatement, where: _Where) -> None:
        if isinstance(node, (cst.Assign, cst.AnnAssign)):
            if node.value is None:
                return
            self.expr(node.value, where)
            origins = self.origins(node.value, where)
            targets = node.targets if isinstance(node, cst.Assign) else [node]
            for target in targets:
                _bind(self.env, target.target, node.value, origins, where.loops)
                self.name_submodule(target.target, _module_path(node.value, self._submodules))
        elif isinstance(node, cst.AugAssign):
            self.expr(node.value, where)
            origins = self.origins(node.value, where) | self.origins(node.target, where)
            _bind(self.env, node.target, node.value, origins, where.loops)
        elif isinstance(node, cst.Return):
            if node.value is not None:
                self.expr(node.value, where)
                self._returned.append(self.origins(node.value, where))
        else:
            self.expr(node, where)

    def with_statement(self, node: cst.With, where: _Where) -> None:
        inner = where
        for item in node.items:
            if _call_attr(item.item) in self.builder.trace_names:
                # A trace opened inside a trace is a trace of its own.
                _TraceWalker(self.builder, node, dict(self.env)).run(where.scope)
                return
        for item in node.items:
            self.expr(item.item, where)
            if _call_attr(item.item) == "invoke":
                inner = replace(inner, invoke=_Invoke(next(self._invokes)))
            elif isinstance(item.item, cst.Call) and backward_kind(item.item, where.scope):
                inner = replace(inner, in_backward=True)
            if item.asname is not None:
                _bind(self.env, item.asname.name, item.item, self.origins(item.item, where), where.loops)
        self.block(body_of(node), inner)

    def if_chain(self, node: cst.If, where: _Where) -> None:
        arm = 0
        branch: Optional[cst.CSTNode] = node
        while branch is not None:
            if isinstance(branch, cst.If):
                self.expr(branch.test, _in_arm(where, node, arm))
                self.block(body_of(branch), _in_arm(where, node, arm))
                branch = branch.orelse
            else:  # else:
                self.block(body_of(branch), _in_arm(where, node, arm))
                branch = None
            arm += 1

    def loop(self, node, where: _Where) -> None:
        if isinstance(node, cst.For):
            self.expr(node.iter, where)
            _bind(self.env, node.target, node.iter, self.origins(node.iter, where), where.loops)
            target = node.target
            if _call_attr(node.iter) == "enumerate" and isinstance(target, cst.Tuple) and len(target.elements) == 2:
                target = target.elements[1].value
            self.name_submodule(target, _iterated_module_path(node.iter, self._submodules))
        else:
            self.expr(node.test, where)
        inside = replace(where, loops=where.loops + (id(node),))
        self.block(body_of(node), inside)
        if node.orelse is not None:
            self.block(body_of(node.orelse), where)

    def try_statement(self, node, where: _Where) -> None:
        self.block(body_of(node), _in_arm(where, node, 0))
        for arm, handler in enumerate(node.handlers, start=1):
            self.block(body_of(handler), _in_arm(where, node, arm))
        if node.orelse is not None:
            self.block(body_of(node.orelse), _in_arm(where, node, 0))
        if node.finalbody is not None:
            self.block(body_of(node.finalbody), where)

    def name_submodule(self, target: cst.CSTNode, path: Optional[Tuple[object, ...]]) -> None:
        """Remember (or forget) that a name stands for a submodule, so `name.output` is placed right."""
        if isinstance(target, cst.Name):
            if path is None:
                self._submodules.pop(target.value, None)
            else:
                self._submodules[target.value] = path

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, node: cst.CSTNode, where: _Where) -> None:
        """Visit an expression in evaluation order: module accesses, backward calls, helper calls."""
        kind = type(node)
        if kind in _DEFINITIONS:
            return
        if kind is cst.Attribute and node.attr.value in _ACCESS_KIND:
            self.expr(node.value, where)
            if not where.in_backward:
                path = _module_path(node.value, self._submodules)
                where.invoke.waits_for = ModuleAccess(("?",) if path is None else path, _ACCESS_KIND[node.attr.value])
            return
        if kind in _COMPREHENSIONS:  # runs its element once per item, like a loop
            where = replace(where, loops=where.loops + (id(node),))
        for child in children(node):
            self.expr(child, where)
        if kind is cst.Call:
            kind = backward_kind(node, where.scope)
            if kind is not None:
                self.record(node, kind, where)
            else:
                self.inline_helper(node, where)

    def record(self, call: cst.Call, kind: CallKind, where: _Where) -> None:
        loss = _loss_expression(call, kind)
        origins = self.origins(loss, where) if loss is not None else frozenset({TRACE})
        name = call.func.attr if isinstance(call.func, cst.Attribute) else call.func
        self.trace.backwards.append(
            BackwardCall(
                call=call,
                name=name,
                kind=kind,
                retention=_retention(call, kind, where.scope),
                origins=origins,
                invoke=where.invoke.index,
                order=next(self._order),
                waits_for=where.invoke.waits_for,
                branches=where.branches,
                loops=where.loops,
            )
        )

    def inline_helper(self, call: cst.Call, where: _Where) -> None:
        function = _helper_for(call, where.scope)
        if function is None or id(function) in self._inlining:
            return
        scope = self.builder.function_scope(function)
        params = function_params(function)
        outer_env = self.env
        self.env = {name: origins for name, origins in outer_env.items() if name not in scope.literals}
        outer_submodules = self._submodules
        self._submodules = {k: v for k, v in outer_submodules.items() if k not in scope.literals}
        positional = [p for p in params if p.star not in ("*", "**")]
        if isinstance(call.func, cst.Attribute) and positional and positional[0].name.value == "self":
            positional = positional[1:]
        by_name = {p.name.value for p in params}
        bound = list(zip((p.name.value for p in positional), (a for a in call.args if a.keyword is None and not a.star)))
        bound += [(a.keyword.value, a) for a in call.args if a.keyword is not None and a.keyword.value in by_name]
        for param, arg in bound:
            self.env[param] = self.origins(arg.value, where)
            # `def read(layer): return layer.output` called as `read(model.transformer.h[1])`
            self.name_submodule(cst.Name(param), _module_path(arg.value, outer_submodules))
        self._inlining.append(id(function))
        saved_returns, self._returned = self._returned, []
        try:
            self.block(body_of(function), replace(where, scope=scope))
            self._call_results[id(call)] = frozenset().union(*self._returned)
        finally:
            self._inlining.pop()
            self._returned = saved_returns
            self.env = outer_env
            self._submodules = outer_submodules

    def origins(self, node: cst.BaseExpression, where: _Where) -> FrozenSet[Origin]:
        return _origins(node, self.env, where.scope, self._call_results)


# -- helpers shared by the scope scan and the trace walk ---------------------------------------------


def _origins(node: cst.CSTNode, env: Env, scope: Scope, call_results) -> FrozenSet[Origin]:
    """The autograd graphs a value may carry."""
    kind = type(node)  # exact-type tests: isinstance against libcst's ABCs is slow
    if kind is cst.Name:
        name = node.value
        if name in env:
            return env[name]
        if name in ("True", "False", "None") or name in _BUILTINS or scope.is_import(name):
            return _NO_GRAPH
        # A parameter or a name bound elsewhere: inside a trace, assume the model's graph.
        return _TRACE_ONLY
    if kind is cst.Attribute:
        if node.attr.value in _ACCESS_KIND:
            return _TRACE_ONLY
        return _origins(node.value, env, scope, call_results)
    if kind in _NO_GRAPH_NODES:
        return _NO_GRAPH
    if kind is cst.Call:
        if _call_attr(node) in ("detach", "detach_"):
            return _NO_GRAPH  # `.detach()` cuts the graph
        if id(node) in call_results:
            return call_results[id(node)].union(*(_origins(a.value, env, scope, call_results) for a in node.args))
    parts = [_origins(child, env, scope, call_results) for child in children(node)]
    return _NO_GRAPH.union(*parts) if parts else _NO_GRAPH


def _bind(env: Env, target: cst.CSTNode, value: cst.CSTNode, origins, loops) -> None:
    """Record what graph the names in `target` now carry."""
    names = _names(target)
    if not names:
        return
    if _makes_leaf(value):
        bound = frozenset({Origin(names[0], id(value), leaf=True, loops=loops)})
    elif origins:
        bound = origins | {Origin(names[0], id(value), loops=loops)}
    else:
        bound = _NO_GRAPH
    for name in names:
        env[name] = bound


def _makes_leaf(value: cst.CSTNode) -> bool:
    """`x.detach().requires_grad_()`, `torch.ones(..., requires_grad=True)`, `nn.Parameter(...)`."""
    if not isinstance(value, cst.Call):
        return False
    if _call_attr(value) in ("requires_grad_", "Parameter"):
        return True
    return any(
        arg.keyword is not None and arg.keyword.value == "requires_grad" for arg in value.args
    )


def _names(target: cst.CSTNode) -> List[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for element in target.elements for n in _names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _names(target.value)
    return []


def _call_attr(node: cst.CSTNode) -> Optional[str]:
    """`name` for a call `<anything>.name(...)` or `name(...)`."""
    if not isinstance(node, cst.Call):
        return None
    if isinstance(node.func, cst.Attribute):
        return node.func.attr.value
    if isinstance(node.func, cst.Name):
        return node.func.value
    return None


def _disables_grad(node: cst.CSTNode, scope: Scope) -> bool:
    """`torch.no_grad()`, `torch.inference_mode()`, `torch.set_grad_enabled(False)` (or undecorated)."""
    call = node if isinstance(node, cst.Call) else None
    name = scope.qualified(call.func if call else node)
    if name in ("torch.no_grad", "torch.inference_mode"):
        return True
    if name == "torch.set_grad_enabled" and call is not None and call.args:
        return _truth(call.args[0].value, scope) is False
    return False


def _module_path(node: cst.CSTNode, submodules: Dict[str, Tuple[object, ...]]) -> Optional[Tuple[object, ...]]:
    """`model.transformer.h[1]` as ("transformer", "h", 1); "?" for an index not known statically.

    The root name is taken for the model itself unless it names a submodule bound earlier.
    None when the expression is not a chain of attributes and subscripts on a name.
    """
    path: List[object] = []
    value = node
    while True:
        if isinstance(value, cst.Attribute):
            if value.attr.value in _ACCESS_KIND:
                return None
            path.append(value.attr.value)
            value = value.value
        elif isinstance(value, cst.Subscript):
            index = value.slice[0].slice if len(value.slice) == 1 else None
            literal = index.value if isinstance(index, cst.Index) else None
            path.append(int(literal.value, 0) if isinstance(literal, cst.Integer) else "?")
            value = value.value
        elif isinstance(value, cst.Name):
            return submodules.get(value.value, ()) + tuple(reversed(path))
        else:
            return None


def _iterated_module_path(node: cst.CSTNode, submodules) -> Optional[Tuple[object, ...]]:
    """`for layer in model.transformer.h` (or `enumerate(...)` of it): one item of a module list."""
    if isinstance(node, cst.Call) and dotted_name(node.func) in ("enumerate", "reversed") and node.args:
        node = node.args[0].value
    path = _module_path(node, submodules)
    return None if path is None else path + ("?",)


def _loss_expression(call: cst.Call, kind: CallKind) -> Optional[cst.BaseExpression]:
    if kind is CallKind.TENSOR_BACKWARD:
        return call.func.value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == kind.loss_keyword:
            return arg.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return positional[0].value if positional else None


def _helper_for(call: cst.Call, scope: Scope) -> Optional[cst.FunctionDef]:
    if isinstance(call.func, cst.Name):
        return scope.function(call.func.value)
    if isinstance(call.func, cst.Attribute) and dotted_name(call.func.value) == "self":
        scope_ = scope
        while scope_ is not None:
            if call.func.attr.value in scope_.methods:
                return scope_.methods[call.func.attr.value]
            scope_ = scope_.parent
    return None


# -- retain_graph ----------------------------------------------------------------------------------

_MISSING = object()


def _retention(call: cst.Call, kind: CallKind, scope: Scope) -> Retention:
    """Does this call keep the graph? `retain_graph`, else torch's default: `create_graph`."""
    retain = create = _MISSING
    unknown_kwargs = False
    position = 0
    for arg in call.args:
        if arg.star == "*":
            return Retention(Retains.UNKNOWN)
        if arg.star == "**":
            mapping = _literal_kwargs(arg.value, scope)
            if mapping is None:
                unknown_kwargs = True
                continue
            retain = mapping.get("retain_graph", retain)
            create = mapping.get("create_graph", create)
        elif arg.keyword is not None:
            if arg.keyword.value == "retain_graph":
                retain = arg.value
            elif arg.keyword.value == "create_graph":
                create = arg.value
        else:
            if position == kind.retain_position:
                retain = arg.value
            elif position == kind.retain_position + 1:
                create = arg.value
            position += 1
    retain_value = _truth(retain, scope)
    if retain_value is True:
        return Retention(Retains.YES, retain)
    node = retain if retain is not _MISSING else None
    if retain_value is _MISSING and unknown_kwargs or retain_value == "unknown":
        return Retention(Retains.UNKNOWN, node)
    if retain_value is False:
        return Retention(Retains.NO, node)
    # retain_graph missing or None: torch retains exactly when create_graph is true.
    create_value = _truth(create, scope)
    if create_value is True:
        return Retention(Retains.YES, node)
    if create_value == "unknown" or unknown_kwargs:
        return Retention(Retains.UNKNOWN, node)
    return Retention(Retains.NO, node)


def _truth(node, scope: Scope, depth: int = 0):
    """True/False for a literal (or a name bound once to one), None for None, _MISSING, or "unknown"."""
    if node is _MISSING:
        return _MISSING
    if isinstance(node, cst.Name):
        if node.value in ("True", "False"):
            return node.value == "True"
        if node.value == "None":
            return None
        bound = scope.literal(node.value)
        return _truth(bound, scope, depth + 1) if bound is not None and depth < 4 else "unknown"
    if isinstance(node, cst.Integer):
        return int(node.value, 0) != 0
    return "unknown"


def _literal_kwargs(node: cst.BaseExpression, scope: Scope) -> Optional[Dict[str, cst.BaseExpression]]:
    """`**kw` where `kw` is a dict literal or `dict(...)` call (bound once in scope): its items."""
    if isinstance(node, cst.Name):
        node = scope.literal(node.value)
    if isinstance(node, cst.Dict):
        items = {}
        for element in node.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
                return None
            items[element.key.evaluated_value] = element.value
        return items
    if isinstance(node, cst.Call) and dotted_name(node.func) == "dict":
        if any(arg.keyword is None for arg in node.args):
            return None
        return {arg.keyword.value: arg.value for arg in node.args}
    return None


# -- tree shapes ---------------------------------------------------------------------------------


def _in_arm(where: _Where, statement: cst.CSTNode, arm: int) -> _Where:
    return replace(where, branches=where.branches + ((id(statement), arm),))
