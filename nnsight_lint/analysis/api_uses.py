"""Where a file uses nnsight's API by name: imports of nnsight modules and names, attributes of an
imported nnsight module, members of the objects nnsight hands out (the model wrapper, its Envoys,
the tracer, invoker, session, a module's output inside a trace), and keyword arguments of `trace`,
`generate`, `scan`, `session`, `invoke` and `LanguageModel(...)`.

Names resolve through imports and aliases (`import nnsight as ns`, `from nnsight import
LanguageModel as LM`); receivers are the traced models of the file model, names bound to an
nnsight model constructor, and the `as` names of traces, invokes and sessions. A use is `guarded`
when the code checks for it: inside a `try` whose handler catches what a missing name raises, in
either arm of an `if` / conditional expression / `and`-`or` whose test calls `hasattr` or reads a
version (`nnsight.__version__`, `version.parse(...)`), so version-switching code is not a finding.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from nnsight_lint.analysis.guards import mentions_version
from nnsight_lint.analysis.model import FileModel
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.tree import children

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


def _import_names(module: cst.Module) -> Dict[str, str]:
    names: Dict[str, str] = {}

    class Visitor(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                full = dotted_name(alias.name)
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    names[alias.asname.name.value] = full
                elif full:
                    head = full.split(".")[0]
                    names[head] = head

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
                return
            base = dotted_name(node.module)
            for alias in node.names:
                name = dotted_name(alias.name)
                local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else name
                names[local] = f"{base}.{name}"

    module.visit(Visitor())
    return names


def _qualified(node: cst.BaseExpression, imports: Dict[str, str]) -> Optional[str]:
    name = dotted_name(node)
    if name is None:
        return None
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
    bindings = _Bindings(_import_names(model.module))
    for trace in model.traces:
        if trace.model:
            bindings.roles.setdefault(trace.model, "model")
        if trace.tracer:
            bindings.roles[trace.tracer] = "generator" if trace.kind == "generate" else "tracer"
        for invoke in trace.invokes:
            for item in invoke.node.items:
                if item.asname is not None and isinstance(item.asname.name, cst.Name):
                    bindings.roles[item.asname.name.value] = "invoker"
    for session in model.sessions:
        for item in session.node.items:
            if item.asname is not None and isinstance(item.asname.name, cst.Name):
                bindings.roles[item.asname.name.value] = "session"
    imports = bindings.imports

    class Visitor(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Call) and _is_model_constructor(_qualified(node.value.func, imports)):
                for target in node.targets:
                    name = dotted_name(target.target)
                    if name:
                        bindings.roles[name] = "model"

    model.module.visit(Visitor())
    return bindings


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
        types = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
        for element in types:
            value = element.value if isinstance(element, cst.Element) else element
            name = dotted_name(value)
            if name:
                names.add(name.rsplit(".", 1)[-1])
    return names


class _Walker(cst.CSTVisitor):
    def __init__(self, bindings: _Bindings, model_members: Set[str]) -> None:
        self.bindings = bindings
        self.model_members = model_members  # names the model wrapper has in some release
        self.uses: List[ApiUse] = []
        self.guards: List[object] = []  # "all" (an if on hasattr/version) or a set of caught names
        self.inner: Set[int] = set()  # Attribute nodes already seen as part of a longer chain
        self.tracers: List[Optional[str]] = []
        self.tested: Dict[int, bool] = {}  # id of an expression -> does it test for an API or a version

    # -- guards ---------------------------------------------------------------------------------
    def guarded(self, kind: str) -> bool:
        raised = _RAISES[kind]
        return any(g == "all" or (_CATCHES[raised] & g) for g in self.guards)

    def visit_Try(self, node: cst.Try) -> bool:
        self.guards.append(_caught(node.handlers))
        node.body.visit(self)
        self.guards.pop()
        for part in (*node.handlers, node.orelse, node.finalbody):
            if part is not None:
                part.visit(self)
        return False

    def _guarding(self, test: cst.BaseExpression) -> bool:
        if _guard_test(test, self.tested):
            self.guards.append("all")
            return True
        return False

    def visit_If(self, node: cst.If) -> None:
        self._pushed(node, self._guarding(node.test))

    def leave_If(self, node: cst.If) -> None:
        self._popped(node)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._pushed(node, self._guarding(node.test))

    def leave_IfExp(self, node: cst.IfExp) -> None:
        self._popped(node)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._pushed(node, self._guarding(node.left))

    def leave_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._popped(node)

    def _pushed(self, node, pushed: bool) -> None:
        if pushed:
            self.inner.add(-id(node))

    def _popped(self, node) -> None:
        if -id(node) in self.inner:
            self.inner.discard(-id(node))
            self.guards.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        """`submodule = model.transformer.h[0].mlp`: the name is an Envoy from here on."""
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            if self.role(node.value) == "envoy":
                self.bindings.roles[node.targets[0].target.value] = "envoy"

    # -- the trace a use runs in ----------------------------------------------------------------
    def visit_With(self, node: cst.With) -> None:
        name = None
        for item in node.items:
            call = item.item
            if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                    and call.func.attr.value in ("trace", "generate") and item.asname is not None
                    and isinstance(item.asname.name, cst.Name)):
                name = item.asname.name.value
        self.tracers.append(name or (self.tracers[-1] if self.tracers else None))

    def leave_With(self, node: cst.With) -> None:
        self.tracers.pop()

    # -- uses -----------------------------------------------------------------------------------
    def emit(self, use: ApiUse) -> None:
        use.guarded = self.guarded(use.kind)
        use.tracer = self.tracers[-1] if self.tracers else None
        self.uses.append(use)

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            full = dotted_name(alias.name)
            if full and full.startswith("nnsight."):
                self.emit(ApiUse("module", full, alias.name))
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if node.relative or node.module is None:
            return False
        base = dotted_name(node.module)
        if not base or not (base == "nnsight" or base.startswith("nnsight.")):
            return False
        if base != "nnsight":
            self.emit(ApiUse("module", base, node.module))
        if not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                name = dotted_name(alias.name)
                self.emit(ApiUse("name", f"{base}.{name}", alias.name, prefixes=((f"{base}.{name}", alias.name),)))
        return False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if id(node) in self.inner:
            return
        chain = []
        inner = node
        while isinstance(inner, cst.Attribute):
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
        role = self.role(node.value)
        if role is not None:
            self.emit(ApiUse("member", node.attr.value, node.attr, role=role, receiver=node.value, attribute=node))

    def role(self, receiver: cst.BaseExpression) -> Optional[str]:
        name = dotted_name(receiver)
        if name is not None and name in self.bindings.roles:
            return self.bindings.roles[name]
        steps = []
        inner = receiver
        while isinstance(inner, (cst.Attribute, cst.Subscript)):
            steps.append(inner)
            inner = inner.value
        if not steps:
            return None
        root = dotted_name(inner)
        if root is not None and self.bindings.roles.get(root) == "envoy":  # `submodule.output`
            return self._path_role(steps, from_envoy=True)
        # Find the model the chain starts at: the longest dotted prefix bound as a model.
        for i in range(len(steps), 0, -1):
            head = steps[i - 1]
            if isinstance(head, cst.Attribute) and dotted_name(head) in self.bindings.roles:
                if self.bindings.roles[dotted_name(head)] == "model":
                    return self._path_role(steps[: i - 1])
                return None
        if root is not None and self.bindings.roles.get(root) == "model":
            return self._path_role(steps)
        return None

    def _path_role(self, steps: List[cst.BaseExpression], from_envoy: bool = False) -> Optional[str]:
        """The role of `<model>` (or an Envoy) followed by `steps` (outermost first): an Envoy, an
        output, or something that is not nnsight's (`model.tokenizer.decode`)."""
        path = list(reversed(steps))  # innermost first
        first = path[0] if path else None
        if not from_envoy and isinstance(first, cst.Attribute) and first.attr.value in self.model_members:
            return None
        for step in path:
            if isinstance(step, cst.Attribute) and step.attr.value in _ACCESSES:
                return "output" if step is path[-1] else None
        return "envoy"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        call = None
        if isinstance(func, cst.Attribute):
            role = self.role(func.value)
            attr = func.attr.value
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

    def leave_Call(self, node: cst.Call) -> None:
        # The member a call calls: the member use's `call`.
        if isinstance(node.func, cst.Attribute):
            for use in reversed(self.uses):
                if use.attribute is node.func and use.kind == "member":
                    use.call = node
                    break


def api_uses(model: FileModel, model_members: Set[str]) -> List[ApiUse]:
    """Every use of nnsight's API by name in the file, in source order."""
    walker = _Walker(_bindings(model), model_members)
    model.module.visit(walker)
    return walker.uses
