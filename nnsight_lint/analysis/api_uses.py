"""Where a file uses nnsight's API by name: imports of nnsight modules and names, attributes of an
imported nnsight module, members of the objects nnsight hands out (the model wrapper, its Envoys,
the tracer, invoker, session, a module's output inside a trace), and keyword arguments of `trace`,
`generate`, `scan`, `session`, `invoke` and `LanguageModel(...)`.

Names resolve through imports and aliases (`import nnsight as ns`, `from nnsight import
LanguageModel as LM`); receivers are the traced models of the file model, names bound to an
nnsight model constructor, the `as` names of traces, invokes and sessions, and, in the body of a
top-level function, its parameters that a call of it hands one of these. A use is `guarded`
when the code checks for it: inside a `try` whose handler catches what a missing name raises, in
either arm of an `if` / conditional expression / `and`-`or` whose test calls `hasattr` or reads a
version (`nnsight.__version__`, `version.parse(...)`), so version-switching code is not a finding.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import AbstractSet, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from nnsight_lint.analysis.guards import mentions_version
from nnsight_lint.analysis.model import EventKind, FileModel
from nnsight_lint.analysis.scope import dotted_name, imported_names
from nnsight_lint.analysis.tree import NOT_NODES, SEQUENCES, body_of, children, code_fields, statement_blocks

ROLE_CALLS = {"trace": "trace", "generate": "generate", "scan": "scan", "session": "session"}
_ACCESSES = ("output", "input", "inputs")
# What a missing module, attribute or keyword raises, and the handlers that catch it.
_RAISES = {"module": "ImportError", "name": "AttributeError", "member": "AttributeError", "keyword": "TypeError"}
_CATCHES = {
    "ImportError": {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"},
    "AttributeError": {"AttributeError", "ImportError", "Exception", "BaseException"},  # `from m import gone`
    "TypeError": {"TypeError", "Exception", "BaseException"},
}


@dataclass
class ApiUse:
    kind: str  # "module", "name", "member", "keyword"
    name: str  # the qualified module or name; the member; the keyword
    node: cst.CSTNode  # where a finding points
    role: Optional[str] = None  # member: "model", "envoy", "tracer", ...; keyword: the call ("trace", ...)
    receiver: Optional[cst.BaseExpression] = None  # member: the object
    attribute: Optional[cst.Attribute] = None  # member / name: the whole `<receiver>.<name>`
    call: Optional[cst.Call] = None  # member: the call when the member is called; keyword: its call
    guarded: bool = False
    prefixes: Tuple[Tuple[str, cst.CSTNode], ...] = ()  # name: `nnsight.a`, `nnsight.a.b`, ... shortest first
    tracer: Optional[str] = None  # the `as` name of the trace the use runs in, when it has one


@dataclass
class _Bindings:
    imports: Dict[str, str] = field(default_factory=dict)  # local name -> qualified
    roles: Dict[str, str] = field(default_factory=dict)  # dotted receiver -> role
    # A top-level function called with nnsight objects: its name -> {parameter: role} (`def f(m):`
    # called as `f(model)`: inside `f`, `m` is the model).
    parameters: Dict[str, Dict[str, str]] = field(default_factory=dict)


def _statements(module: cst.Module) -> Iterator[cst.CSTNode]:
    """Every small and compound statement of the module, nested blocks included, in source order
    (imports and assignments are statements: no expression needs walking to find them)."""
    stack: List[cst.CSTNode] = list(reversed(module.body))
    while stack:
        node = stack.pop()
        if type(node) is cst.SimpleStatementLine:
            yield from node.body
            continue
        yield node
        blocks = [body_of(node)] if type(node) in (cst.FunctionDef, cst.ClassDef) else statement_blocks(node)
        for block in reversed(blocks):
            stack.extend(reversed(block))


def _import_names(statements: Sequence[cst.CSTNode]) -> Dict[str, str]:
    names: Dict[str, str] = {}
    for node in statements:
        names.update(imported_names(node))
    return names


def _qualified(node: cst.BaseExpression, imports: Dict[str, str]) -> Optional[str]:
    root = node
    while type(root) is cst.Attribute:
        root = root.value
    if type(root) is not cst.Name or root.value not in imports:
        return None  # not a dotted name, or not one an import binds (most attributes and calls)
    name = dotted_name(node)
    head, _, rest = name.partition(".")
    if head not in imports:
        return None
    full = imports[head]
    return f"{full}.{rest}" if rest else full


def _is_model_constructor(qualified: Optional[str]) -> bool:
    if not qualified or not qualified.startswith("nnsight."):
        return False
    last = qualified.rsplit(".", 1)[-1]
    return last == "NNsight" or last.endswith("Model")


def _bindings(model: FileModel) -> _Bindings:
    statements = list(_statements(model.module))
    bindings = _Bindings(_import_names(statements))
    for trace in model.traces:
        if trace.model:
            bindings.roles.setdefault(trace.model, "model")
        if trace.tracer:
            bindings.roles[trace.tracer] = "generator" if trace.kind == "generate" else "tracer"
        for invoke in trace.invokes:
            for item in invoke.node.items:
                if item.asname is not None and type(item.asname.name) is cst.Name:
                    bindings.roles[item.asname.name.value] = "invoker"
    for session in model.sessions:
        for item in session.node.items:
            if item.asname is not None and type(item.asname.name) is cst.Name:
                bindings.roles[item.asname.name.value] = "session"
    imports = bindings.imports
    for node in statements:
        if (type(node) is cst.Assign and type(node.value) is cst.Call
                and _is_model_constructor(_qualified(node.value.func, imports))):
            for target in node.targets:
                name = dotted_name(target.target)
                if name:
                    bindings.roles[name] = "model"
    _parameter_roles(model, bindings)
    return bindings


def _parameter_roles(model: FileModel, bindings: _Bindings) -> None:
    """The parameters of the file's top-level functions that a call hands an nnsight object."""
    functions = {node.name.value: node for node in model.module.body if type(node) is cst.FunctionDef}
    if not functions:
        return
    for event in model.events:
        if event.kind is not EventKind.CALL or event.name not in functions or type(event.node.func) is not cst.Name:
            continue
        function, call = functions[event.name], event.node
        positional = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
        for index, arg in enumerate(call.args):
            if arg.star:
                break
            name = arg.keyword.value if arg.keyword is not None else (
                positional[index] if index < len(positional) else None)
            role = bindings.roles.get(dotted_name(arg.value) or "")
            if name is not None and role is not None:
                bindings.parameters.setdefault(event.name, {}).setdefault(name, role)


def _guard_test(test: cst.CSTNode, memo: Dict[int, bool]) -> bool:
    """Does an `if` test check for an API or a version (`hasattr(...)`, `nnsight.__version__`)?
    `memo` keeps each subtree's answer: an `a and b and ...` chain asks of every left operand, which
    holds the rest of the chain (a walk per operand is quadratic)."""
    key = id(test)
    known = memo.get(key)
    if known is not None:
        return known
    kind = type(test)
    if kind is cst.Call and type(test.func) is cst.Name and test.func.value == "hasattr":
        found = True
    elif mentions_version(test):
        found = True
    else:
        found = any(_guard_test(child, memo) for child in children(test))
    memo[key] = found
    return found


def _caught(handlers: Sequence[cst.ExceptHandler]) -> Set[str]:
    names: Set[str] = set()
    for handler in handlers:
        if handler.type is None:
            names.add("BaseException")
            continue
        types = handler.type.elements if type(handler.type) is cst.Tuple else [handler.type]
        for element in types:
            value = element.value if type(element) is cst.Element else element
            name = dotted_name(value)
            if name:
                names.add(name.rsplit(".", 1)[-1])
    return names


# Nodes with no uses below them (names are read through their parents: `a.b`, `f(...)`).
_NOT_WALKED = frozenset({cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis,
                         cst.FormattedStringText, cst.Pass, cst.Break, cst.Continue}) | NOT_NODES
# Nodes whose one field that carries code holds a node (their other fields hold text: `Arg.star`),
# and that no handler takes: walked as what they hold, without a call of their own (`Arg`s,
# subscripts' `Index`es and assignment targets are a fifth of the nodes walked).
WRAPPERS = {cst.Arg: "value", cst.AssignTarget: "target", cst.SubscriptElement: "slice", cst.Index: "value",
            cst.Element: "value", cst.StarredElement: "value", cst.Expr: "value", cst.Return: "value",
            cst.Decorator: "decorator", cst.Annotation: "annotation", cst.ComparisonTarget: "comparator"}


class _Walker:
    """One read-only walk over the tree (fields read directly: libcst's visitor rebuilds nodes and
    costs several times as much), in source order, with the guards and the trace each use is in."""

    def __init__(self, bindings: _Bindings, model_members: Set[str], asked: Optional[AbstractSet[str]]) -> None:
        self.bindings = bindings
        self.model_members = model_members  # names the model wrapper has in some release
        self.asked = asked  # the only members whose uses are wanted (None: all)
        self.uses: List[ApiUse] = []
        self.guards: List[object] = []  # "all" (an if on hasattr/version) or a set of caught names
        self.inner: Set[int] = set()  # Attribute nodes already seen as part of a longer chain
        self.tracers: List[Optional[str]] = []
        self.tested: Dict[int, bool] = {}  # id of an expression -> does it test for an API or a version
        self.members: Dict[int, ApiUse] = {}  # id of a `<receiver>.<member>` -> its use
        # The first segments of the names bound to roles (`self` of `self.model`); None when the
        # roles changed since (`roles_changed`). A receiver whose root is none of them has no role.
        self._roots: Optional[Set[str]] = None

    def walk(self, node: cst.CSTNode) -> None:
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            handler(self, node)
        else:
            self.walk_children(node)

    def walk_children(self, node: cst.CSTNode) -> None:
        # `tree.children` and `walk` inlined: this loop visits every node of the file.
        handlers = _HANDLERS
        for name in code_fields(type(node)):
            value = getattr(node, name)
            for child in value if type(value) in SEQUENCES else (value,):
                kind = type(child)
                while kind in WRAPPERS:
                    child = getattr(child, WRAPPERS[kind])
                    kind = type(child)
                if kind in _NOT_WALKED:
                    continue
                handler = handlers.get(kind)
                if handler is not None:
                    handler(self, child)
                else:
                    self.walk_children(child)

    # -- guards ---------------------------------------------------------------------------------
    def guarded(self, kind: str) -> bool:
        raised = _RAISES[kind]
        return any(g == "all" or (_CATCHES[raised] & g) for g in self.guards)

    def try_statement(self, node: cst.Try) -> None:
        self.guards.append(_caught(node.handlers))
        self.walk(node.body)
        self.guards.pop()
        for part in (*node.handlers, node.orelse, node.finalbody):
            if part is not None:
                self.walk(part)

    def guarded_by_test(self, node) -> None:
        """An `if`, conditional expression or `and`/`or` whose test (left operand) checks for an API
        or a version guards all of itself."""
        test = node.left if type(node) is cst.BooleanOperation else node.test
        guarding = _guard_test(test, self.tested)
        if guarding:
            self.guards.append("all")
        self.walk_children(node)
        if guarding:
            self.guards.pop()

    def assign(self, node: cst.Assign) -> None:
        """`submodule = model.transformer.h[0].mlp`: the name is an Envoy from here on."""
        if len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            if self.role(node.value) == "envoy":
                self.bindings.roles[node.targets[0].target.value] = "envoy"
                self.roles_changed()
        self.walk_children(node)

    def function(self, node: cst.FunctionDef) -> None:
        """A helper called with nnsight objects: its parameters have their roles in its body."""
        given = self.bindings.parameters.get(node.name.value)
        if not given:
            self.walk_children(node)
            return
        roles = self.bindings.roles
        before = {name: roles.get(name) for name in given}
        roles.update(given)
        self.roles_changed()
        self.walk_children(node)
        for name, role in before.items():
            if role is None:
                roles.pop(name, None)
            else:
                roles[name] = role
        self.roles_changed()

    def roles_changed(self) -> None:
        self._roots = None

    # -- the trace a use runs in ----------------------------------------------------------------
    def with_statement(self, node: cst.With) -> None:
        name = None
        for item in node.items:
            call = item.item
            if (type(call) is cst.Call and type(call.func) is cst.Attribute
                    and call.func.attr.value in ("trace", "generate") and item.asname is not None
                    and type(item.asname.name) is cst.Name):
                name = item.asname.name.value
        self.tracers.append(name or (self.tracers[-1] if self.tracers else None))
        self.walk_children(node)
        self.tracers.pop()

    # -- uses -----------------------------------------------------------------------------------
    def emit(self, use: ApiUse) -> None:
        use.guarded = self.guarded(use.kind)
        use.tracer = self.tracers[-1] if self.tracers else None
        self.uses.append(use)

    def import_statement(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted_name(alias.name)
            if full and full.startswith("nnsight."):
                self.emit(ApiUse("module", full, alias.name))

    def import_from(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            return
        base = dotted_name(node.module)
        if not base or not (base == "nnsight" or base.startswith("nnsight.")):
            return
        if base != "nnsight":
            self.emit(ApiUse("module", base, node.module))
        if type(node.names) is not cst.ImportStar:
            for alias in node.names:
                name = dotted_name(alias.name)
                self.emit(ApiUse("name", f"{base}.{name}", alias.name, prefixes=((f"{base}.{name}", alias.name),)))

    def attribute(self, node: cst.Attribute) -> None:
        if id(node) not in self.inner:
            self.chain(node)
        # The attributes of the chain inside it hold nothing but the next (their one field): walked
        # down to what the chain starts at.
        value = node.value
        while type(value) is cst.Attribute and id(value) in self.inner:
            value = value.value
        if type(value) not in _NOT_WALKED:
            self.walk(value)

    def chain(self, node: cst.Attribute) -> None:
        chain = []
        inner = node
        while type(inner) is cst.Attribute:
            chain.append(inner)
            self.inner.add(id(inner))
            inner = inner.value
        qualified = _qualified(node, self.bindings.imports)
        if qualified is not None and qualified.startswith("nnsight."):
            prefixes = tuple((_qualified(a, self.bindings.imports), a) for a in reversed(chain))
            self.emit(ApiUse("name", qualified, node, attribute=node, prefixes=prefixes))
            return
        for attribute in reversed(chain):  # innermost first: `a.b` before `a.b.c`
            self.member(attribute)

    def member(self, node: cst.Attribute) -> None:
        if self.asked is not None and node.attr.value not in self.asked:
            return  # no use of it is wanted: its receiver's role is not asked for (most members)
        role = self.role(node.value)
        if role is not None:
            use = ApiUse("member", node.attr.value, node.attr, role=role, receiver=node.value, attribute=node)
            self.members[id(node)] = use
            self.emit(use)

    def role(self, receiver: cst.BaseExpression) -> Optional[str]:
        roles = self.bindings.roles
        steps = []
        inner = receiver
        while type(inner) is cst.Attribute or type(inner) is cst.Subscript:
            steps.append(inner)
            inner = inner.value
        root = inner.value if type(inner) is cst.Name else None
        roots = self._roots
        if roots is None:
            roots = self._roots = {key.partition(".")[0] for key in roles}
        if root not in roots:
            return None  # every name a role is bound to starts elsewhere (or the chain is no dotted name)
        # Each step's dotted name, innermost first, in one pass (`dotted_name` per step is quadratic
        # in the chain, and every member of a chain asks for its receiver's role).
        prefixes: List[Optional[str]] = []
        prefix = root
        for step in reversed(steps):
            prefix = f"{prefix}.{step.attr.value}" if prefix is not None and type(step) is cst.Attribute else None
            prefixes.append(prefix)
        name = prefixes[-1] if steps else root
        if name is not None and name in roles:
            return roles[name]
        if not steps:
            return None
        if root is not None and roles.get(root) == "envoy":  # `submodule.output`
            return self._path_role(steps, from_envoy=True)
        # Find the model the chain starts at: the innermost dotted prefix bound to a role.
        for i, prefix in zip(range(len(steps), 0, -1), prefixes):
            if prefix is None:
                break  # past a subscript: no dotted prefix further out
            if prefix in roles:
                return self._path_role(steps[: i - 1]) if roles[prefix] == "model" else None
        if root is not None and roles.get(root) == "model":
            return self._path_role(steps)
        return None

    def _path_role(self, steps: List[cst.BaseExpression], from_envoy: bool = False) -> Optional[str]:
        """The role of `<model>` (or an Envoy) followed by `steps` (outermost first): an Envoy, an
        output, or something that is not nnsight's (`model.tokenizer.decode`)."""
        path = list(reversed(steps))  # innermost first
        first = path[0] if path else None
        if not from_envoy and type(first) is cst.Attribute and first.attr.value in self.model_members:
            return None
        for step in path:
            if type(step) is cst.Attribute and step.attr.value in _ACCESSES:
                return "output" if step is path[-1] else None
        return "envoy"

    def call(self, node: cst.Call) -> None:
        self.keywords(node)
        self.walk_children(node)
        # The member a call calls: the member use's `call`.
        use = self.members.get(id(node.func))
        if use is not None:
            use.call = node

    def keywords(self, node: cst.Call) -> None:
        func = node.func
        call = None
        attr = func.attr.value if type(func) is cst.Attribute else None
        if attr in ROLE_CALLS or attr == "invoke":
            role = self.role(func.value)  # asked only of the calls it decides (most calls are others)
            if role == "model" and attr in ROLE_CALLS:
                call = ROLE_CALLS[attr]
            elif role in ("tracer", "generator") and attr == "invoke":
                call = "invoke"
        qualified = _qualified(func, self.bindings.imports)
        if _is_model_constructor(qualified) and qualified.endswith("LanguageModel"):
            call = "LanguageModel"
        if call is None:
            return
        for arg in node.args:
            if arg.keyword is not None:
                self.emit(ApiUse("keyword", arg.keyword.value, arg, role=call, call=node))


# What `_Walker.walk` does with a node of each type, as plain functions: bound methods kept on
# the walker would make it a cycle, and keep the uses and the tree they point into for the
# garbage collector to free.
_HANDLERS = {
    cst.Try: _Walker.try_statement, cst.If: _Walker.guarded_by_test, cst.IfExp: _Walker.guarded_by_test,
    cst.BooleanOperation: _Walker.guarded_by_test, cst.Assign: _Walker.assign, cst.With: _Walker.with_statement,
    cst.Import: _Walker.import_statement, cst.ImportFrom: _Walker.import_from, cst.Attribute: _Walker.attribute,
    cst.Call: _Walker.call, cst.FunctionDef: _Walker.function,
}


def api_uses(model: FileModel, model_members: Set[str], memo: Optional[Dict[int, tuple]] = None,
             members: Optional[AbstractSet[str]] = None) -> List[ApiUse]:
    """Every use of nnsight's API by name in the file, in source order. `memo`: what an earlier
    version of the same document found per top-level statement; a statement that is the same node,
    walked with the same bindings, has the same uses (and binds the same Envoy names). `members`:
    the only members whose uses are wanted (None: every member); modules, names and keywords are
    all found."""
    walker = _Walker(_bindings(model), model_members, members)
    if memo is None:
        walker.walk(model.module)
        return walker.uses
    bindings, kept = walker.bindings, {}
    fixed = (members, tuple(sorted(bindings.imports.items())), tuple(sorted((k, tuple(sorted(v.items())))
                                                                    for k, v in bindings.parameters.items())))
    for statement in model.module.body:
        state = (fixed, tuple(sorted(bindings.roles.items())))
        known = memo.get(id(statement))
        if known is None or known[0] is not statement or known[1] != state:
            start, before = len(walker.uses), dict(bindings.roles)
            walker.walk(statement)
            bound = {name: role for name, role in bindings.roles.items() if before.get(name) != role}
            known = (statement, state, walker.uses[start:], bound)
        else:
            walker.uses.extend(known[2])
            bindings.roles.update(known[3])
            walker.roles_changed()
        kept[id(statement)] = known
    memo.clear()
    memo.update(kept)  # the statements of this version only
    return walker.uses
