"""The small model of a file that rules read: its traces, what each one runs, and the events of
the file in evaluation order.

The builder (`builder.py`) produces it from a libcst tree; rules never walk the tree themselves
for these facts. Everything here is derived once per file.

Two views share one walk:
- `Trace.backwards`: the backward-like calls of a trace with their graphs and run order (NNL001);
- `FileModel.events`: every module access, name read and binding, `.grad` read, save and call, in
  the order Python evaluates them (a right-hand side before its target), each with `Where` it runs
  (which trace, invoke, backward block, iter loop, grad-mode block, loops, branches, helper).
  Helpers defined in the file are walked at each call site inside a trace, as if inlined, so
  their events appear there too (with `Where.helper` set).

Which model a trace runs on (`Trace.model_ref`, `Session.model_ref`, `FileModel.models`) is
resolved on first use (`analysis/models.py`): most runs never ask.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from nnsight_lint.analysis.constants import Constants

if TYPE_CHECKING:
    from nnsight_lint.analysis.models import ModelRef


def exclusive(branches: Tuple[Tuple[int, int], ...], others: Tuple[Tuple[int, int], ...]) -> bool:
    """Do two places sit in different arms of one if/elif/else, try/except or match (never both run)?"""
    arms = dict(branches)
    return any(statement in arms and arms[statement] != arm for statement, arm in others)


class Retains(Constants):
    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"  # computed at run time (`retain_graph=i < n - 1`, unknown **kwargs)


class CallKind(Constants):
    TENSOR_BACKWARD = "backward()"
    AUTOGRAD_BACKWARD = "torch.autograd.backward()"
    AUTOGRAD_GRAD = "torch.autograd.grad()"

    @property
    def retain_position(self) -> int:
        """Index of `retain_graph` among the positional parameters."""
        return {"backward()": 1, "torch.autograd.backward()": 2, "torch.autograd.grad()": 3}[self.value]

    @property
    def loss_keyword(self) -> str:
        return {"backward()": "", "torch.autograd.backward()": "tensors", "torch.autograd.grad()": "outputs"}[
            self.value
        ]


@dataclass(frozen=True)
class Origin:
    """Where a tensor's autograd graph comes from.

    `TRACE` is the graph of the trace's batched forward; a named origin is a tensor bound in the
    trace (a non-leaf node two losses may share, or a requires-grad leaf, which frees nothing).
    `loops` are the loops (within the trace) the binding sits in: a fresh tensor every iteration.
    """

    name: str
    ident: int = 0
    leaf: bool = False
    loops: Tuple[int, ...] = field(default=(), compare=False, hash=False)


TRACE = Origin("<trace forward>")


@dataclass(frozen=True)
class ModuleAccess:
    """`<model>.<path>.output` (or `.input`): the point in the forward an invoke waits for."""

    path: Tuple[object, ...]  # attribute names and integer indices; "?" where not static
    kind: str  # "input" or "output"

    def __str__(self) -> str:
        text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)
        return f"model{text}.{self.kind}"


@dataclass
class Retention:
    """How a call decides `retain_graph`, and the node a fix rewrites to `True` (None: add a keyword)."""

    retains: Retains
    value_node: Optional[cst.BaseExpression] = None


@dataclass
class BackwardCall:
    """One run of a backward-like call inside a trace (a helper called twice gives two)."""

    call: cst.Call
    name: cst.Name  # the `backward` / `grad` name: where findings point
    kind: CallKind
    retention: Retention
    origins: FrozenSet[Origin]
    invoke: int  # which invoke of the trace runs it, in source order
    order: int  # position in the walk of the trace: source order within an invoke
    waits_for: Optional[ModuleAccess]  # the last module its invoke reached before the call
    branches: Tuple[Tuple[int, int], ...]  # (branching statement, arm) pairs around the call
    loops: Tuple[int, ...]  # loops within the trace around the call

    @property
    def retains(self) -> Retains:
        return self.retention.retains

    def shared_origins(self, other: "BackwardCall") -> FrozenSet[Origin]:
        return frozenset(o for o in self.origins & other.origins if not o.leaf)

    def excludes(self, other: "BackwardCall") -> bool:
        """True when the two calls sit in different arms of one if/elif/else, try/except or match."""
        return exclusive(self.branches, other.branches)

    def repeats_in_loop(self) -> bool:
        """A loop within the trace runs this call again on a graph made outside that loop."""
        return any(
            loop not in origin.loops for loop in self.loops for origin in self.origins if not origin.leaf
        )


class Tri(Constants):
    """A fact the source may or may not decide."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"


@dataclass(eq=False)
class Invoke:
    """`with tracer.invoke(...)`: one batch entry of its trace; `index` counts from 1 in source order
    (a call site of a helper that opens an invoke counts again)."""

    node: cst.With
    call: cst.Call
    index: int
    has_input: Tri
    where: "Where"  # where the `with` itself sits (the enclosing invoke, loops, iter loop)


@dataclass(eq=False)
class IterLoop:
    """`for step in tracer.iter[...]` / `tracer.all()`, or the `with` form of either.

    `bounded` is YES for a slice with an end (`[:3]`) or an index, NO for `[:]` / `all()`.
    `following` are the statements after it that run in the same invoke (or trace body): the rest
    of its block, then the rest of each enclosing block up to the invoke or trace."""

    node: cst.CSTNode
    bounded: Tri
    where: "Where"
    following: List[cst.CSTNode] = field(default_factory=list)


@dataclass(eq=False)
class Trace:
    node: cst.With
    backwards: List[BackwardCall] = field(default_factory=list)
    kind: str = "trace"  # "trace" or "generate"
    call: Optional[cst.Call] = None  # the `model.trace(...)` call
    model: Optional[str] = None  # the traced object as written: "model", "self.model"
    tracer: Optional[str] = None  # the `as` name
    has_input: Tri = Tri.UNKNOWN
    grad_disabled: Optional[str] = None  # "no_grad" / "inference_mode" around the whole trace
    parent: Optional["Trace"] = None  # the trace this one is opened in
    session: Optional[cst.With] = None  # the `with model.session():` it runs in
    where: Optional["Where"] = None  # where the `with` sits
    invokes: List[Invoke] = field(default_factory=list)
    iters: List[IterLoop] = field(default_factory=list)
    backward_blocks: List[cst.With] = field(default_factory=list)  # `with loss.backward():`
    start: int = 0  # event order at the `with` and after its body
    end: int = 0
    top: Optional[cst.CSTNode] = None  # the module-level statement the trace is written in
    file: Optional["FileModel"] = field(default=None, repr=False, compare=False)

    @property
    def model_ref(self) -> Optional["ModelRef"]:
        """The nnsight construction the traced object resolves to (`analysis/models.py`); None when
        the source does not say. `model` stays the receiver as written."""
        return self.file.receiver(self.call) if self.file is not None and self.call is not None else None


@dataclass(frozen=True, eq=False)
class Where:
    """Where an event runs. `scope` is the lexical scope (a helper's own when inlined)."""

    scope: object
    trace: Optional[Trace] = None
    invoke: int = 0  # 0: the trace body itself
    backward: Optional[cst.With] = None  # innermost `with loss.backward():`
    iter: Optional[IterLoop] = None  # innermost iter loop
    grad_mode: Optional[Tuple[str, cst.With]] = None  # ("no_grad"/"inference_mode", its with) in the trace
    loops: Tuple[int, ...] = ()  # ids of loops and comprehensions around it (within the trace)
    # (statement, arm) pairs of the code around it that may not run: if/elif/else, try/except and match
    # arms, and a loop's `else:` (which a `break` skips; its own statement, so it excludes nothing).
    branches: Tuple[Tuple[int, int], ...] = ()
    helper: Tuple[cst.Call, ...] = ()  # call sites of inlined helpers, outermost first
    session: Optional[cst.With] = None
    function: Optional[cst.FunctionDef] = None  # the def whose body this is (not inlined)

    def excludes(self, other: "Where") -> bool:
        """In different arms of one if/elif/else, try/except or match: never both run."""
        return exclusive(self.branches, other.branches)


class EventKind(Constants):
    ACCESS = "access"  # `<module>.output` / `.input` / `.inputs`
    READ = "read"  # a name is read
    BIND = "bind"  # a name is bound (assignment, for target, with-as, import, walrus, comprehension)
    DELETE = "delete"  # `del name`
    GRAD = "grad"  # `<expr>.grad`
    SAVE = "save"  # `<expr>.save()` or `nnsight.save(<expr>)`
    CALL = "call"  # any call
    ATTRIBUTE = "attribute"  # `<expr>.<name>` for the names in builder.WATCHED_ATTRIBUTES


@dataclass(eq=False)
class Event:
    kind: EventKind
    node: cst.CSTNode  # ACCESS/GRAD/ATTRIBUTE: the Attribute; READ/BIND/DELETE: the Name; SAVE/CALL: the Call
    where: Where
    order: int  # evaluation order over the whole file walk
    name: Optional[str] = None  # READ/BIND/DELETE: the name; CALL: the callee, qualified through imports
    base: Optional[cst.BaseExpression] = None  # GRAD/ATTRIBUTE/SAVE: the object; CALL: the callee
    path: Optional[Tuple[object, ...]] = None  # ACCESS/GRAD: module path of the object, when static
    rooted: bool = False  # ACCESS/GRAD: the chain starts at the traced model (or a submodule alias)
    access: Optional[str] = None  # ACCESS: "output", "input" or "inputs"
    # ACCESS/GRAD/ATTRIBUTE/READ written: "self" (`x.output = v`), "item" (`x.output[0] = v`), "nested"
    # (`x.output[0][:] = v`); None when only read. A READ's name is written through (`x[0] = v`).
    store: Optional[str] = None
    value: Optional[cst.BaseExpression] = None  # BIND: the value (None for a for-target, import, ...)
    statement: Optional[cst.CSTNode] = None  # BIND: the small statement or compound header binding it
    saved: bool = False  # BIND: the value is `<x>.save()` / `nnsight.save(x)`
    from_model: bool = False  # BIND: the value derives from a module access (or such a name)
    top: Optional[cst.CSTNode] = field(default=None, repr=False)  # the module-level statement walked when it was seen
    within: Optional[cst.CSTNode] = field(default=None, repr=False)  # the small statement (or compound) being walked


@dataclass(eq=False)
class Session:
    node: cst.With
    start: int = 0
    end: int = 0
    call: Optional[cst.Call] = None  # the `model.session(...)` call
    file: Optional["FileModel"] = field(default=None, repr=False, compare=False)

    @property
    def model_ref(self) -> Optional["ModelRef"]:
        return self.file.receiver(self.call) if self.file is not None and self.call is not None else None


@dataclass
class FileModel:
    module: cst.Module
    traces: List[Trace] = field(default_factory=list)
    sessions: List[Session] = field(default_factory=list)
    events: List[Event] = field(default_factory=list)
    inlined: Set[int] = field(default_factory=set)  # ids of helper defs walked inside some trace
    _by_trace: Optional[Dict[int, List[Event]]] = field(default=None, repr=False)
    _indexed: int = field(default=0, repr=False)
    _by_name: Optional[Dict[Tuple[EventKind, str], List[Event]]] = field(default=None, repr=False)
    _named: int = field(default=0, repr=False)
    path: Optional[str] = None  # the file's path, for the project files model resolution may read
    _models: Optional[tuple] = field(default=None, repr=False)
    _guards: Optional[object] = field(default=None, repr=False)
    # (the settings asked with, what `schemas.module_events` found): the model rules' shared answer.
    module_events: Optional[tuple] = field(default=None, repr=False)

    def release(self) -> None:
        """Let go of what makes the model a web of cycles (an event's and an invoke's `where`, a
        trace's file), once the rules are done with it: the model, and the tree it points into,
        are then freed by reference counting as soon as the lint lets go of them. Left cyclic,
        they wait for the garbage collector, which must scan every node of the tree to free it
        (one piece of a huge file: 300,000 objects, 0.3 s)."""
        for trace in self.traces:
            trace.file = trace.where = trace.parent = None
            for each in (*trace.invokes, *trace.iters):
                each.where = None
        for event in self.events:
            event.where = None
        self.__dict__.clear()

    def _resolved(self) -> tuple:
        if self._models is None:
            from nnsight_lint.analysis.models import resolve_models

            self._models = resolve_models(self.module, self.path)
        return self._models

    @property
    def models(self) -> List["ModelRef"]:
        """Every nnsight model construction in the file, in source order."""
        return self._resolved()[0]

    def receiver(self, call: cst.Call) -> Optional["ModelRef"]:
        """The model a `.trace(...)` / `.generate(...)` / `.scan(...)` / `.session(...)` call's
        receiver resolves to, or None."""
        return self._resolved()[1].get(id(call))

    def guarded(self, node: cst.Attribute) -> bool:
        """Is the attribute read `node` a version guard's (`x.value if hasattr(x, "value") else x`):
        evaluated only where the object has the attribute (`analysis.guards`)?"""
        if self._guards is None:
            from nnsight_lint.analysis.guards import Guards

            self._guards = Guards(self.module)
        return self._guards.guarded(node)

    def in_version_branch(self, node: cst.CSTNode) -> bool:
        """Is `node` in an arm of an `if` that tests a version (`analysis.guards`): written for the
        releases the test picks, whatever release the project targets?"""
        if self._guards is None:
            from nnsight_lint.analysis.guards import Guards

            self._guards = Guards(self.module)
        return self._guards.in_version_branch(node)

    def trace_events(self, trace: Trace) -> List[Event]:
        """The events that run in `trace` (indexed on first use: rules ask once per trace)."""
        if self._by_trace is None or self._indexed != len(self.events):
            self._by_trace = {}
            for event in self.events:
                if event.where.trace is not None:
                    self._by_trace.setdefault(id(event.where.trace), []).append(event)
            self._indexed = len(self.events)
        return self._by_trace.get(id(trace), [])

    def named(self, kind: EventKind, name: str) -> List[Event]:
        """The events of `kind` on `name`, in order: a binding of the name (BIND), or a call of a
        method so named (CALL on `x.name(...)`). Indexed on first use: rules ask per event."""
        if self._by_name is None or self._named != len(self.events):
            self._by_name = {}
            for event in self.events:
                if event.kind is EventKind.BIND:
                    self._by_name.setdefault((EventKind.BIND, event.name), []).append(event)
                elif event.kind is EventKind.CALL and type(event.base) is cst.Attribute:
                    self._by_name.setdefault((EventKind.CALL, event.base.attr.value), []).append(event)
            self._named = len(self.events)
        return self._by_name.get((kind, name), [])
