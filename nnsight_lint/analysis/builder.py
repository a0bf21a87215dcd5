"""Builds the FileModel: walks the file once, in the order Python evaluates it, and every trace
the way nnsight runs it.

One walker does both: outside a trace it records events (reads, bindings, saves, calls) and the
tensors bound before a trace; inside a trace it also keeps, per invoke, the last module the
invoke's code waited for (that is when its backward runs), which names carry which autograd graph
(`Origin`s), and the branches, loops, backward blocks and iter loops around each statement.
Helper functions defined in the file are walked at each call site inside a trace, as if inlined.
"""
from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from nnsight_lint.analysis.model import (
    TRACE,
    BackwardCall,
    CallKind,
    Event,
    EventKind,
    FileModel,
    Invoke,
    IterLoop,
    ModuleAccess,
    Origin,
    Session,
    Trace,
    Where,
)
from nnsight_lint.analysis.autograd import (
    Env,
    bind,
    grad_mode,
    graphs_of,
    innermost_disabled,
    loss_expression,
    retention,
)
from nnsight_lint.analysis.calls import call_attr, has_input, helper_for, iter_bound, lookalike_classes
from nnsight_lint.analysis.paths import ACCESS_KIND, is_access, iterated_module_path, module_path, unwrap_iteration
from nnsight_lint.analysis.tree import body_of, children, every_child, statement_blocks
from nnsight_lint.analysis.scope import (
    Scope,
    backward_kind,
    collect_scope,
    dotted_name,
    function_params,
)

# Attribute reads recorded as ATTRIBUTE events (legacy `.value`, `tracer.result`).
WATCHED_ATTRIBUTES = frozenset({"value", "result"})
_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp})
# Expressions without a child that carries code, and those with one (its field): a fifth of the
# expressions `expr` visits.
_LEAVES = frozenset({cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Colon, cst.Ellipsis})
_ONE_CHILD = {cst.Index: "value", cst.SubscriptElement: "slice", cst.Arg: "value", cst.UnaryOperation: "expression",
              cst.Expr: "value", cst.Element: "value"}
_DEFINITIONS = frozenset({cst.Lambda, cst.FunctionDef, cst.ClassDef})


def build_file_model(module: cst.Module, trace_names: Iterable[str] = ("trace",), path: Optional[str] = None) -> FileModel:
    """`path`: the file's, for what model resolution reads beside it (`conftest.py`, project modules)."""
    builder = _Builder(module, frozenset(trace_names))
    builder.model.path = path
    scope = builder.scope_of(module.body, None)
    walker = _Walker(builder, None, {})
    for statement in module.body:
        builder.top = statement
        walker.block([statement], Where(scope))
    while builder.functions:  # after the traces: a helper they call was walked where it runs
        function, scope, without_grad, builder.top = builder.functions.pop(0)
        if id(function) in builder.model.inlined:
            continue
        outer, builder.without_grad = builder.without_grad, without_grad
        try:
            _Walker(builder, None, {}).block(body_of(function), Where(scope, function=function))
        finally:
            builder.without_grad = outer
    return builder.model


class _Builder:
    """What the walkers of one file share: the model, scopes, and the event counter."""

    def __init__(self, module: cst.Module, trace_names: FrozenSet[str]) -> None:
        self.model = FileModel(module)
        self.trace_names = trace_names
        self._scopes: Dict[int, Scope] = {}  # id(function node) -> its scope
        self._defining: Dict[int, Scope] = {}  # id(function node) -> scope it is defined in
        self.order = itertools.count()
        self.without_grad: List[str] = []  # `with torch.no_grad():` / `@torch.no_grad()` around, outside traces
        self.functions: List[tuple] = []  # defs still to walk as written: (def, scope, without_grad, top)
        self.top: Optional[cst.CSTNode] = None  # the module-level statement being walked
        self.within: Optional[cst.CSTNode] = None  # the small statement (or compound header) being walked
        self.sessions: List[cst.With] = []
        self.lookalikes = lookalike_classes(module, trace_names)

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
            body = function.body.body if type(function.body) is cst.IndentedBlock else [function.body]
            parent = self._defining.get(key)
            inherited = methods if methods is not None else (parent.methods if parent else None)
            self._scopes[key] = self.scope_of(body, parent, params, inherited)
        return self._scopes[key]

    def trace_item(self, statement: cst.With, scope: Optional[Scope] = None) -> Optional[Tuple[str, cst.WithItem]]:
        """("trace" or "generate", the item opening it) when the `with` opens a trace."""
        for item in statement.items:
            attr = call_attr(item.item)
            if attr in self.trace_names and not self.is_lookalike(item.item, scope):
                return "trace", item
            if attr == "generate" and type(item.item.func) is cst.Attribute:
                return "generate", item
        return None


    def is_lookalike(self, call: cst.Call, scope: Optional[Scope]) -> bool:
        """`Timer().trace()` / `timer.trace()` where `timer = Timer()` and the file defines `Timer`
        with a plain `@contextmanager def trace`: not an nnsight model."""
        if not self.lookalikes or type(call.func) is not cst.Attribute:
            return False
        receiver = call.func.value
        if type(receiver) is cst.Name and scope is not None:
            receiver = scope.literal(receiver.value) or receiver
        return type(receiver) is cst.Call and dotted_name(receiver.func) in self.lookalikes


class _Walker:
    """Walks statements in evaluation order: outside any trace (`trace` None) or one trace's body,
    the way nnsight runs it, recording its backward calls and the file's events."""

    def __init__(self, builder: _Builder, trace: Optional[Trace], env: Env) -> None:
        self.builder = builder
        self.trace = trace
        self.env = env
        self._order = itertools.count()
        self._invokes = itertools.count(1)
        self._waits: Dict[int, Optional[ModuleAccess]] = {0: None}  # invoke -> last module it reached
        self._inlining: List[int] = []
        self._call_results: Dict[int, FrozenSet[Origin]] = {}
        self._returned: List[FrozenSet[Origin]] = []  # what the helper being inlined returns
        self._submodules: Dict[str, Tuple[object, ...]] = {}  # `layer = model.transformer.h[3]`
        self._model_names: Set[str] = set()  # names that stand for the traced model or a submodule
        self._derived: Set[str] = set()  # names bound from a module access (or from such a name)
        self._frames: List[list] = []  # [statements, index] of the blocks being walked
        self._roots: Dict[str, str] = {}  # outside traces: `layer = model.transformer.h[3]` -> "model"
        self._boundary = 0  # frames from here on belong to the current invoke (or trace body)

    # -- events --------------------------------------------------------------------------------

    def emit(self, kind: EventKind, node: cst.CSTNode, where: Where, **facts) -> Event:
        event = Event(kind, node, where, next(self.builder.order), top=self.builder.top, within=self.builder.within,
                      **facts)
        self.builder.model.events.append(event)
        return event

    # -- a trace -------------------------------------------------------------------------------

    def open_trace(self, node: cst.With, kind: str, opener: cst.WithItem, where: Where) -> None:
        """Walk a `with model.trace(...)` (or `.generate(...)`) statement as a trace of its own."""
        call = opener.item
        tracer = opener.asname.name if opener.asname is not None else None
        trace = Trace(
            node,
            kind=kind,
            call=call,
            model=dotted_name(call.func.value) if type(call.func) is cst.Attribute else None,
            tracer=tracer.value if type(tracer) is cst.Name else None,
            has_input=has_input(call),
            grad_disabled=innermost_disabled(self.builder.without_grad),
            parent=self.trace,
            session=where.session,
            where=where,
        )
        trace.start = next(self.builder.order)
        trace.top = self.builder.top
        walker = _Walker(self.builder, trace, dict(self.env))
        walker._model_names = set(self._model_names)
        # Submodules named before the trace (`attn = model.transformer.h[1].attn`) keep their place.
        walker._submodules = dict(self._submodules)
        root = trace.model.split(".")[0] if trace.model else None
        walker._model_names.update(name for name, named in self._roots.items() if named == root)
        inside = Where(where.scope, trace, 0, session=where.session, function=where.function)
        for item in node.items:
            if item is not opener:
                walker.expr(item.item, inside)
            else:  # the model and the trace's own arguments are evaluated before it starts
                if type(call.func) is cst.Attribute:
                    self.expr(call.func.value, where)
                for arg in call.args:
                    self.expr(arg.value, where)
        if type(tracer) is cst.Name:
            self.emit(EventKind.BIND, tracer, where, name=tracer.value, value=call, statement=opener)
        trace.file = self.builder.model
        self.builder.model.traces.append(trace)
        walker.body(body_of(node), inside)
        trace.end = next(self.builder.order)
        if next(walker._invokes) > 1:
            # With explicit invokes, the trace body runs before the forward: it cannot reach the
            # model's graph, so its backwards share nothing with the invokes'.
            for backward in trace.backwards:
                if backward.invoke == 0:
                    backward.origins = backward.origins - {TRACE}

    def body(self, statements: Sequence[cst.CSTNode], where: Where) -> None:
        """The body of a trace or an invoke: what an open iter loop's trailing statements end at."""
        boundary, self._boundary = self._boundary, len(self._frames)
        try:
            self.block(statements, where)
        finally:
            self._boundary = boundary

    # -- statements ----------------------------------------------------------------------------

    def block(self, statements: Sequence[cst.CSTNode], where: Where) -> None:
        frame = [statements, 0]
        self._frames.append(frame)
        try:
            for index, statement in enumerate(statements):
                frame[1] = index
                self.statement(statement, where)
        finally:
            self._frames.pop()

    def statement(self, node: cst.CSTNode, where: Where) -> None:
        self.builder.within = node
        if type(node) is cst.SimpleStatementLine:
            for small in node.body:
                self.builder.within = small
                self.small_statement(small, where)
        elif type(node) is cst.With:
            self.with_statement(node, where)
        elif type(node) is cst.If:
            self.if_chain(node, where)
        elif isinstance(node, (cst.For, cst.While)):
            self.loop(node, where)
        elif isinstance(node, (cst.Try, cst.TryStar)):
            self.try_statement(node, where)
        elif type(node) is cst.Match:
            self.expr(node.subject, where)
            for arm, case in enumerate(node.cases):
                inside = _in_arm(where, node, arm)
                for name in _captures(case.pattern):  # `case [first, *rest]:` binds first and rest
                    self.bind_name(name, None, inside, case, False)
                if case.guard is not None:
                    self.expr(case.guard, inside)
                self.block(body_of(case), inside)
        elif type(node) is cst.FunctionDef:
            self.bind_name(node.name, None, where, node, False)  # `def h():` rebinds `h`
            if self.trace is None:  # inside a trace a definition runs nothing: calls are inlined
                self.function(node, where, self.builder.function_scope(node))
        elif type(node) is cst.ClassDef:
            self.bind_name(node.name, None, where, node, False)
            if self.trace is None:
                methods = {s.name.value: s for s in body_of(node) if type(s) is cst.FunctionDef}
                for method in methods.values():
                    self.builder._defining[id(method)] = where.scope
                    self.function(method, where, self.builder.function_scope(method, methods))
        else:
            for block in statement_blocks(node):
                self.block(block, where)

    def function(self, function: cst.FunctionDef, where: Where, scope: Scope) -> None:
        """A def outside any trace: its body is a scope of its own, walked as written once the
        file's own code has run, unless a trace calls it (then it is walked there, as inlined)."""
        disabled = next((m for m in (grad_mode(d.decorator, where.scope) for d in function.decorators) if m), None)
        without_grad = self.builder.without_grad + ([disabled] if disabled else [])
        self.builder.functions.append((function, scope, without_grad, self.builder.top))

    def small_statement(self, node: cst.BaseSmallStatement, where: Where) -> None:
        kind = type(node)
        if kind is cst.Assign or kind is cst.AnnAssign:
            if node.value is None:
                return
            value_events = len(self.builder.model.events)
            self.expr(node.value, where)
            origins = self.origins(node.value, where)
            from_model = self.from_model(value_events)
            targets = node.targets if kind is cst.Assign else [node]
            for target in targets:
                bind(self.env, target.target, node.value, origins, where.loops)
                self.name_submodule(target.target, module_path(node.value, self._submodules))
                if self.trace is None:
                    self.name_root(target.target, node.value)
                self.assign(target.target, node.value, where, node, from_model)
        elif kind is cst.AugAssign:
            self.expr(node.target, where)
            value_events = len(self.builder.model.events)
            self.expr(node.value, where)
            if self.trace is not None:
                origins = self.origins(node.value, where) | self.origins(node.target, where)
                bind(self.env, node.target, node.value, origins, where.loops)
            if type(node.target) is cst.Name:
                from_model = self.from_model(value_events) or node.target.value in self._derived
                self.bind_name(node.target, node.value, where, node, from_model)
        elif kind is cst.Return:
            if node.value is not None:
                self.expr(node.value, where)
                self._returned.append(self.origins(node.value, where))
        elif kind is cst.Del:
            for name in _names_in(node.target):
                self.emit(EventKind.DELETE, name, where, name=name.value)
        elif kind is cst.Import or kind is cst.ImportFrom:
            if type(node.names) is not cst.ImportStar:
                for alias in node.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    while type(bound) is cst.Attribute:  # `import a.b` binds `a`
                        bound = bound.value
                    if type(bound) is cst.Name:
                        self.emit(EventKind.BIND, bound, where, name=bound.value, statement=node)
        elif kind is cst.Global or kind is cst.Nonlocal:
            return
        else:
            self.expr(node, where)

    def assign(self, target, value, where: Where, statement, from_model: bool) -> None:
        """The events of an assignment target, after its value was evaluated (left to right)."""
        kind = type(target)
        if kind is cst.Name:
            self.name_model(target, value is not None and self.rooted(value) and not is_access(value))
            self.bind_name(target, value, where, statement, from_model)
        elif kind is cst.Tuple or kind is cst.List:
            for element in target.elements:
                self.assign(element.value, None, where, statement, from_model)
        elif kind is cst.StarredElement:
            self.assign(target.value, None, where, statement, from_model)
        else:  # `x.attr = v`, `x[i] = v`: the object is read, its attribute or item written
            self.expr(target, where, store="self")

    def bind_name(self, target: cst.Name, value, where: Where, statement, from_model: bool) -> None:
        name = target.value
        if from_model:
            self._derived.add(name)
        else:
            self._derived.discard(name)
        self.emit(EventKind.BIND, target, where, name=name, value=value, statement=statement,
                  saved=value is not None and self.is_save(value, where), from_model=from_model)

    def from_model(self, since: int) -> bool:
        """Did the events recorded since index `since` read a module or a value derived from one?"""
        for event in itertools.islice(self.builder.model.events, since, None):
            if event.kind is EventKind.ACCESS or event.kind is EventKind.GRAD:
                return True
            if event.kind is EventKind.READ and event.name in self._derived:
                return True
            if event.kind is EventKind.ATTRIBUTE and event.node.attr.value == "result":
                return True
        return False

    def with_statement(self, node: cst.With, where: Where) -> None:
        opened = self.builder.trace_item(node, where.scope)
        if opened is not None:
            self.open_trace(node, opened[0], opened[1], where)
            return
        inner = where
        disabled: Optional[str] = None
        boundary = False
        for item in node.items:
            value = item.item
            attr = call_attr(value)
            if self.trace is None and attr == "session" and type(value.func) is cst.Attribute:
                session = Session(node, next(self.builder.order), call=value, file=self.builder.model)
                self.builder.model.sessions.append(session)
                self.expr(value, where)
                inner = replace(inner, session=node)
                self.bind_as(item, where)
                self.block(body_of(node), inner)
                session.end = next(self.builder.order)
                return
            value_events = len(self.builder.model.events)
            self.expr(value, where)
            mode = grad_mode(value, where.scope)
            if self.trace is None:
                disabled = mode or disabled
                if type(value) is cst.Call and backward_kind(value, where.scope):
                    inner = replace(inner, backward=node)  # a standalone `with loss.backward():`
            elif attr == "invoke":
                index = next(self._invokes)
                self._waits[index] = None
                self.trace.invokes.append(Invoke(node, value, index, has_input(value), where))
                inner = replace(inner, invoke=index, iter=None)
                boundary = True
            elif type(value) is cst.Call and backward_kind(value, where.scope):
                inner = replace(inner, backward=node)
                self.trace.backward_blocks.append(node)
            elif mode:
                inner = replace(inner, grad_mode=None if mode == "enable_grad" else (mode, node))
            elif iter_bound(value, self.trace) is not None:
                inner = replace(inner, iter=self.iter_loop(node, value, where))
            self.bind_as(item, where, value_events)
        if disabled:
            self.builder.without_grad.append(disabled)
        try:
            (self.body if boundary else self.block)(body_of(node), inner)
        finally:
            if disabled:
                self.builder.without_grad.pop()

    def bind_as(self, item: cst.WithItem, where: Where, value_events: Optional[int] = None) -> None:
        if item.asname is None:
            return
        if self.trace is not None:
            bind(self.env, item.asname.name, item.item, self.origins(item.item, where), where.loops)
        from_model = value_events is not None and self.from_model(value_events)
        for name in _names_in(item.asname.name):
            self.bind_name(name, item.item, where, item, from_model)

    def iter_loop(self, node: cst.CSTNode, iterated: cst.BaseExpression, where: Where) -> IterLoop:
        following = [
            statement
            for statements, index in reversed(self._frames[self._boundary:])
            for statement in statements[index + 1:]
        ]
        loop = IterLoop(node, iter_bound(iterated, self.trace), where, following)
        self.trace.iters.append(loop)
        return loop

    def if_chain(self, node: cst.If, where: Where) -> None:
        arm = 0
        branch: Optional[cst.CSTNode] = node
        while branch is not None:
            if type(branch) is cst.If:
                self.builder.within = branch
                self.expr(branch.test, _in_arm(where, node, arm))
                self.block(body_of(branch), _in_arm(where, node, arm))
                branch = branch.orelse
            else:  # else:
                self.block(body_of(branch), _in_arm(where, node, arm))
                branch = None
            arm += 1

    def loop(self, node, where: Where) -> None:
        inside = replace(where, loops=where.loops + (id(node),))
        if type(node) is cst.For:
            value_events = len(self.builder.model.events)
            self.expr(node.iter, where)
            if self.trace is not None:
                bind(self.env, node.target, node.iter, self.origins(node.iter, where), where.loops)
                if iter_bound(node.iter, self.trace) is not None:
                    inside = replace(inside, iter=self.iter_loop(node, node.iter, where))
            self.name_item(node.target, node.iter)
            from_model = self.from_model(value_events)
            for name in _names_in(node.target):
                self.bind_name(name, None, where, node, from_model)
        else:
            self.expr(node.test, where)
        self.block(body_of(node), inside)
        if node.orelse is not None:  # skipped by a `break`: an arm of its own
            self.block(body_of(node.orelse), _in_arm(where, node.orelse, 0))

    def try_statement(self, node, where: Where) -> None:
        self.block(body_of(node), _in_arm(where, node, 0))
        for arm, handler in enumerate(node.handlers, start=1):
            if handler.type is not None:
                self.expr(handler.type, _in_arm(where, node, arm))
            if handler.name is not None:
                for name in _names_in(handler.name.name):
                    self.bind_name(name, None, _in_arm(where, node, arm), handler, False)
            self.block(body_of(handler), _in_arm(where, node, arm))
        if node.orelse is not None:
            self.block(body_of(node.orelse), _in_arm(where, node, 0))
        if node.finalbody is not None:
            self.block(body_of(node.finalbody), where)

    def name_submodule(self, target: cst.CSTNode, path: Optional[Tuple[object, ...]]) -> None:
        """Remember (or forget) that a name stands for a submodule, so `name.output` is placed right."""
        if type(target) is cst.Name:
            if path is None:
                self._submodules.pop(target.value, None)
            else:
                self._submodules[target.value] = path

    def name_root(self, target: cst.CSTNode, value: cst.CSTNode) -> None:
        """Outside traces: remember the model a name's chain of attributes and indices starts at."""
        if type(target) is cst.Name:
            root = value
            while type(root) in (cst.Attribute, cst.Subscript):
                root = root.value
            if type(root) is cst.Name and root is not value and target.value in self._submodules:
                self._roots[target.value] = self._roots.get(root.value, root.value)
            else:
                self._roots.pop(target.value, None)

    def name_item(self, target: cst.CSTNode, iterated: cst.BaseExpression) -> None:
        """`for layer in model.transformer.h` (a loop or a comprehension): `layer` is a submodule."""
        if call_attr(iterated) == "enumerate" and type(target) is cst.Tuple and len(target.elements) == 2:
            target = target.elements[1].value
        path = iterated_module_path(iterated, self._submodules)
        self.name_submodule(target, path)
        self.name_model(target, path is not None and self.rooted(unwrap_iteration(iterated)))

    def name_model(self, target: cst.CSTNode, is_model: bool) -> None:
        if type(target) is cst.Name:
            if is_model:
                self._model_names.add(target.value)
            else:
                self._model_names.discard(target.value)

    def rooted(self, node: cst.CSTNode) -> bool:
        """Does the chain of attributes and subscripts start at the traced model (or a name for it)?"""
        if self.trace is None:
            return False
        segments: List[str] = []
        value = node
        while True:
            kind = type(value)
            if kind is cst.Attribute:
                segments.append(value.attr.value)
                value = value.value
            elif kind is cst.Subscript:
                segments.clear()  # only the attributes right after the root name matter
                value = value.value
            elif kind is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in ("__getattr__", "get"):
                return False
            elif kind is cst.Name:
                break
            else:
                return False
        if value.value in self._model_names:
            return True
        model = self.trace.model
        if model is None:
            return False
        path = [value.value, *reversed(segments)]
        wanted = model.split(".")
        return path[: len(wanted)] == wanted

    def is_save(self, value: cst.CSTNode, where: Where) -> bool:
        if type(value) is cst.IfExp:  # `a.save() if cond else b.save()`: saved either way
            return self.is_save(value.body, where) and self.is_save(value.orelse, where)
        if type(value) is not cst.Call:
            return False
        if type(value.func) is cst.Attribute and value.func.attr.value == "save" and not value.args:
            return True
        return where.scope.qualified(value.func) == "nnsight.save"

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, node: cst.CSTNode, where: Where, store: Optional[str] = None) -> None:
        """Visit an expression in evaluation order: module accesses, backward calls, helper calls,
        and the events of every name read. `store` (see `Event.store`): `node` is written."""
        kind = type(node)
        if kind is cst.Name:
            if node.value not in ("True", "False", "None"):
                self.emit(EventKind.READ, node, where, name=node.value, store=store)
            return
        if kind in _DEFINITIONS:
            if kind is cst.Lambda and self.trace is None:
                self.lambda_reads(node, where)
            return
        if kind is cst.Attribute:
            attr = node.attr.value
            self.expr(node.value, where)
            if attr in ACCESS_KIND:
                path = module_path(node.value, self._submodules)
                if self.trace is not None and where.backward is None:
                    self._waits[where.invoke] = ModuleAccess(("?",) if path is None else path, ACCESS_KIND[attr])
                self.emit(EventKind.ACCESS, node, where, base=node.value, path=path, rooted=self.rooted(node.value),
                          access=attr, store=store)
            elif attr == "grad":
                self.emit(EventKind.GRAD, node, where, base=node.value, path=module_path(node.value, self._submodules),
                          rooted=self.rooted(node.value), store=store)
            elif attr in WATCHED_ATTRIBUTES:
                self.emit(EventKind.ATTRIBUTE, node, where, base=node.value, store=store)
            return
        if kind is cst.Subscript:
            self.expr(node.value, where, store=("item" if store == "self" else "nested") if store else None)
            for element in node.slice:
                self.expr(element, where)
            return
        if kind in _COMPREHENSIONS:  # runs its element once per item, like a loop
            self.comprehension(node, replace(where, loops=where.loops + (id(node),)))
            return
        if kind is cst.NamedExpr:
            value_events = len(self.builder.model.events)
            self.expr(node.value, where)
            if type(node.target) is cst.Name:
                if self.trace is not None:
                    bind(self.env, node.target, node.value, self.origins(node.value, where), where.loops)
                self.bind_name(node.target, node.value, where, node, self.from_model(value_events))
            return
        if kind in _LEAVES:
            return
        field = _ONE_CHILD.get(kind)
        if field is not None:  # `children` of the commonest nodes, without building its list
            self.expr(getattr(node, field), where)
            return
        for child in children(node):
            self.expr(child, where)
        if kind is cst.Call:
            self.call(node, where)

    def lambda_reads(self, node: cst.Lambda, where: Where) -> None:
        """A lambda outside any trace: its defaults run here, and its free names are read when it is
        called, mostly right where it is written (a `key=`, a callback), so they count as read here."""
        params = node.params
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        every += [p for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param]
        for param in every:
            if param.default is not None:
                self.expr(param.default, where)
        bound = {p.name.value for p in every}
        stack, names = [node.body], []
        while stack:
            current = stack.pop()
            kind = type(current)
            if kind is cst.Name:
                names.append(current)
            elif kind is cst.Lambda:
                inner = current.params
                bound |= {p.name.value for p in (*inner.posonly_params, *inner.params, *inner.kwonly_params)}
                stack.append(current.body)
                continue
            elif kind is cst.CompFor:
                bound |= {n.value for n in _names_in(current.target)}
            stack.extend(reversed(list(children(current))))  # popped in source order
        for name in names:
            if name.value not in bound and name.value not in ("True", "False", "None"):
                self.emit(EventKind.READ, name, where, name=name.value)

    def comprehension(self, node, where: Where) -> None:
        """`for` clauses first (their targets are bound), then the element."""
        clause = node.for_in
        while clause is not None:
            value_events = len(self.builder.model.events)
            self.expr(clause.iter, where)
            from_model = self.from_model(value_events)
            self.name_item(clause.target, clause.iter)
            for name in _names_in(clause.target):
                self.bind_name(name, None, where, clause, from_model)
            for condition in clause.ifs:
                self.expr(condition.test, where)
            clause = clause.inner_for_in
        if type(node) is cst.DictComp:
            self.expr(node.key, where)
            self.expr(node.value, where)
        else:
            self.expr(node.elt, where)

    def call(self, node: cst.Call, where: Where) -> None:
        callee = where.scope.qualified(node.func)
        if callee is None and type(node.func) is cst.Attribute:
            callee = "." + node.func.attr.value
        self.emit(EventKind.CALL, node, where, name=callee, base=node.func)
        if self.is_save(node, where):
            # `x.save()` saves `x`; `nnsight.save(x)` (any spelling of the function) saves its argument.
            saved = node.args[0].value if node.args else (
                node.func.value if type(node.func) is cst.Attribute else None)
            self.emit(EventKind.SAVE, node, where, base=saved)
        if self.trace is None:
            return
        kind = backward_kind(node, where.scope)
        if kind is not None:
            self.record(node, kind, where)
        else:
            self.inline_helper(node, where)

    def record(self, call: cst.Call, kind: CallKind, where: Where) -> None:
        loss = loss_expression(call, kind)
        origins = self.origins(loss, where) if loss is not None else frozenset({TRACE})
        name = call.func.attr if type(call.func) is cst.Attribute else call.func
        self.trace.backwards.append(
            BackwardCall(
                call=call,
                name=name,
                kind=kind,
                retention=retention(call, kind, where.scope),
                origins=origins,
                invoke=where.invoke,
                order=next(self._order),
                waits_for=self._waits.get(where.invoke),
                branches=where.branches,
                loops=where.loops,
            )
        )

    def inline_helper(self, call: cst.Call, where: Where) -> None:
        function = helper_for(call, where.scope)
        if function is None or id(function) in self._inlining:
            return
        self.builder.model.inlined.add(id(function))
        scope = self.builder.function_scope(function)
        params = function_params(function)
        outer_env, outer_submodules, outer_models, outer_derived = (
            self.env, self._submodules, self._model_names, self._derived)
        self.env = {name: origins for name, origins in outer_env.items() if name not in scope.literals}
        self._submodules = {k: v for k, v in outer_submodules.items() if k not in scope.literals}
        self._model_names = {k for k in outer_models if k not in scope.literals}
        self._derived = {k for k in outer_derived if k not in scope.literals}
        positional = [p for p in params if p.star not in ("*", "**")]
        if type(call.func) is cst.Attribute and positional and positional[0].name.value == "self":
            positional = positional[1:]
        by_name = {p.name.value for p in params}
        bound = list(zip((p.name.value for p in positional), (a for a in call.args if a.keyword is None and not a.star)))
        bound += [(a.keyword.value, a) for a in call.args if a.keyword is not None and a.keyword.value in by_name]
        for param, arg in bound:
            self.env[param] = graphs_of(arg.value, outer_env, where.scope, self._call_results)
            # `def read(layer): return layer.output` called as `read(model.transformer.h[1])`
            self.name_submodule(cst.Name(param), module_path(arg.value, outer_submodules))
            if self.rooted_in(arg.value, outer_models):
                self._model_names.add(param)
        self._inlining.append(id(function))
        saved_returns, self._returned = self._returned, []
        try:
            self.block(body_of(function), replace(where, scope=scope, helper=where.helper + (call,)))
            self._call_results[id(call)] = frozenset().union(*self._returned)
        finally:
            self._inlining.pop()
            self._returned = saved_returns
            self.env, self._submodules, self._model_names, self._derived = (
                outer_env, outer_submodules, outer_models, outer_derived)

    def rooted_in(self, node: cst.CSTNode, model_names: Set[str]) -> bool:
        current, self._model_names = self._model_names, model_names
        try:
            return self.rooted(node) and not is_access(node)
        finally:
            self._model_names = current

    def origins(self, node: cst.BaseExpression, where: Where) -> FrozenSet[Origin]:
        return graphs_of(node, self.env, where.scope, self._call_results)


def _names_in(target: cst.CSTNode) -> List[cst.Name]:
    if type(target) is cst.Name:
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for element in target.elements for n in _names_in(element.value)]
    if type(target) is cst.StarredElement:
        return _names_in(target.value)
    return []


def _captures(pattern: cst.MatchPattern) -> List[cst.Name]:
    """The names a `case` pattern binds, in source order: `x`, `[x, *rest]`, `{"k": x, **rest}`,
    `Point(x=x)`, `A() as x`, `x | y`'s names."""
    found: List[cst.Name] = []
    stack: List[cst.CSTNode] = [pattern]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is cst.MatchValue or kind is cst.MatchSingleton:
            continue  # a value compared, not bound (`case Color.RED:`)
        if kind is cst.MatchAs or kind is cst.MatchStar:
            if type(node.name) is cst.Name:
                found.append(node.name)
        elif kind is cst.MatchMapping and type(node.rest) is cst.Name:
            found.append(node.rest)
        stack.extend(reversed([c for c in every_child(node) if isinstance(c, cst.CSTNode) and type(c) is not cst.Name]))
    return found


def _in_arm(where: Where, statement: cst.CSTNode, arm: int) -> Where:
    return replace(where, branches=where.branches + ((id(statement), arm),))
