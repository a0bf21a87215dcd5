"""Where values go across trace and invoke boundaries: questions the NNL1xx rules ask of the
events (`FileModel.events`), answered in one place.

A trace hands back only what was saved, and only when its outermost context (the trace, or the
session it runs in) exits; invoke bodies run after their trace's body. These helpers name the
outermost context of an event and find a name's bindings and reads in evaluation order.
"""
from __future__ import annotations

import bisect
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple, Union

import libcst as cst

from nnsight_lint.analysis.model import Event, EventKind, FileModel, Session, Trace, Where

Context = Union[Trace, Session]
NAME_EVENTS = (EventKind.READ, EventKind.BIND, EventKind.DELETE)


def root_trace(trace: Trace) -> Trace:
    while trace.parent is not None:
        trace = trace.parent
    return trace


def outermost(model: FileModel, where: Where) -> Optional[Context]:
    """The trace or session whose exit hands values back to the code around it (None: outside)."""
    if where.session is not None:
        return next((s for s in model.sessions if s.node is where.session), None)
    return root_trace(where.trace) if where.trace is not None else None


def outermost_contexts(model: FileModel) -> List[Context]:
    """Sessions, and traces opened outside any session and any other trace."""
    traces = [t for t in model.traces if t.parent is None and t.session is None]
    return [*model.sessions, *traces]


def context_scope(model: FileModel, context: Context) -> Optional[object]:
    """The lexical scope the context's `with` statement is written in."""
    if isinstance(context, Trace):
        return context.where.scope if context.where is not None else None
    inner = next((t for t in model.traces if t.session is context.node and t.where is not None), None)
    if inner is not None:
        return inner.where.scope
    first = next((e for e in model.events if context.start < e.order < context.end and not e.where.helper), None)
    return first.where.scope if first is not None else None


def is_comprehension_target(event: Event) -> bool:
    return event.kind is EventKind.BIND and type(event.statement) is cst.CompFor


def own_name_events(model: FileModel, scope: object, since: int, until: Optional[int] = None) -> Iterator[Event]:
    """READ/BIND/DELETE events of code written in `scope` itself (not in an inlined helper), in
    evaluation order, strictly between the two orders."""
    events, orders = _by_scope(model).get(id(scope), ((), ()))
    start = bisect.bisect_right(orders, since)
    stop = len(orders) if until is None else bisect.bisect_left(orders, until)
    return iter(events[start:stop])


def _by_scope(model: FileModel) -> Dict[int, Tuple[List[Event], List[int]]]:
    """Name events per scope, in order (built once per model: rules ask per trace)."""
    cached = getattr(model, "_flow_by_scope", None)
    if cached is None:
        cached = {}
        for event in model.events:
            if event.kind in NAME_EVENTS and not event.where.helper:
                events, orders = cached.setdefault(id(event.where.scope), ([], []))
                events.append(event)
                orders.append(event.order)
        model._flow_by_scope = cached
    return cached


def saved_names(model: FileModel, start: int, end: int) -> Dict[str, List[int]]:
    """Names saved by a `x.save()` / `nnsight.save(x)` whose argument is the bare name: name -> orders."""
    saves = getattr(model, "_flow_saves", None)
    if saves is None:
        saves = [e for e in model.events if e.kind is EventKind.SAVE and type(e.base) is cst.Name]
        model._flow_saves = saves
    orders = [e.order for e in saves]
    found: Dict[str, List[int]] = {}
    for event in saves[bisect.bisect_right(orders, start):bisect.bisect_left(orders, end)]:
        found.setdefault(event.base.value, []).append(event.order)
    return found


def helper_saves(model: FileModel, call: cst.Call) -> Optional[bool]:
    """For a call of a same-file helper inlined at this call site: does the helper save anything?
    None when the call was not inlined (a function the analysis cannot see)."""
    index = getattr(model, "_flow_helpers", None)
    if index is None:
        index = {}  # id(call site) -> does the inlined helper save anything?
        for event in model.events:
            for site in event.where.helper:
                index[id(site)] = index.get(id(site), False) or event.kind is EventKind.SAVE
        model._flow_helpers = index
    return index.get(id(call))


def reaching(bindings: Sequence[Event]) -> List[Event]:
    """Of the bindings of one name, in evaluation order, those whose value the name may still hold
    after the last of them: each one that no later binding always overwrites. A later binding always
    runs after an earlier one unless it sits in an arm the earlier one is not in (an if/elif/else,
    try/except or match arm, a loop's `else:`); a loop's body is taken to run (NNL101's fix saves
    the binding in `for block in model.transformer.h:`, not the one before the loop)."""
    kept: List[Event] = []
    overwriting: List[FrozenSet[Tuple[int, int]]] = []  # the arms of the later bindings seen
    for event in reversed(bindings):
        arms = frozenset(event.where.branches)
        if not any(later <= arms for later in overwriting):
            kept.append(event)
            overwriting.append(arms)
    return kept[::-1]


def first_after(events: Iterator[Event], name: str) -> Optional[Event]:
    """The first event about `name` (read, bind or delete) among `events`."""
    return next((e for e in events if e.name == name), None)


def span_orders(context: Context) -> Tuple[int, int]:
    return context.start, context.end


def trace_events(model: FileModel, trace: Trace) -> List[Event]:
    return model.trace_events(trace)  # indexed by the model itself


def bound_before(model: FileModel, scope: object, name: str, order: int) -> bool:
    """Is `name` bound in `scope` (by its own code) before the given order?"""
    index = getattr(model, "_flow_binds", None)
    if index is None:
        index = {}
        for event in model.events:
            if event.kind is EventKind.BIND and not event.where.helper:
                index.setdefault((id(event.where.scope), event.name), []).append(event.order)
        model._flow_binds = index
    orders = index.get((id(scope), name))
    return bool(orders) and orders[0] < order


def last_binding(model: FileModel, name: str, before: int) -> Optional[Event]:
    """The last binding of `name` whose event comes before the event order `before`, wherever it is."""
    for event in reversed(model.named(EventKind.BIND, name)):
        if event.order < before:
            return event
    return None


def binding(model: FileModel, name: str, before: Event, within: str = "trace") -> Optional[Event]:
    """The last binding of `name` that runs before `before`, in its trace (`within="trace"`) or in
    its scope (`within="scope"`); None: bound elsewhere."""
    where = getattr(before.where, within)
    for event in reversed(model.named(EventKind.BIND, name)):
        if event.order < before.order and getattr(event.where, within) is where:
            return event
    return None


def saved_binding(model: FileModel, name: str, read: Event) -> Optional[Event]:
    """The binding of `name` that `read`, outside every trace, sees when it holds a value nnsight
    saved in a trace (so that it IS the value: on 0.4+ no `.value` is needed), else None.

    None when the name was rebound since the trace by anything the model records (an assignment, a
    `def` or `class`, a `match` capture, an import, star-unpacking) or by a function called in
    between that declares it `global`; and when the saved object is no nnsight value (a user's own
    object passed to `nnsight.save`, which may well have a `.value`)."""
    if read.where.trace is not None:
        return None
    found = binding(model, name, read, within="scope")
    if found is None or found.where.trace is None or not found.from_model:
        return None
    saved = found.saved or any(
        e.base.value == name and found.order < e.order < read.order for e in _saves(model)
    )
    if not saved or _global_rebound(model, name, read.where.scope, found.order, read.order):
        return None
    return found


def _saves(model: FileModel) -> List[Event]:
    saves = getattr(model, "_flow_saves", None)
    if saves is None:
        saves = [e for e in model.events if e.kind is EventKind.SAVE and type(e.base) is cst.Name]
        model._flow_saves = saves
    return saves


def _global_rebound(model: FileModel, name: str, scope, since: int, until: int) -> bool:
    """Is a same-file function that declares `global <name>` and binds it called in `scope` between
    the two orders?"""
    for event in model.events:
        if not since < event.order < until or event.kind is not EventKind.CALL or event.where.scope is not scope:
            continue
        if type(event.base) is not cst.Name:
            continue
        function = scope.function(event.base.value) if hasattr(scope, "function") else None
        if function is not None and name in _globals_bound(function):
            return True
    return False


def _globals_bound(function: cst.FunctionDef) -> FrozenSet[str]:
    from nnsight_lint.analysis.tree import children

    declared = set()
    stack = [function.body]
    while stack:
        node = stack.pop()
        if type(node) is cst.Global:
            declared.update(item.name.value for item in node.names)
        elif type(node) not in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            stack.extend(children(node))
    return frozenset(declared)


def containers_of_saves(module: cst.Module) -> FrozenSet[str]:
    """Names of lists and dicts that hold saved values and nothing else: `d[k] = x.save()`,
    `xs.append(x.save())`, or themselves saved (`xs = nnsight.list().save()`); a name that also
    gets another object (`d["cfg"] = Box()`, `xs.append(3)`) holds more than nnsight's values."""
    from nnsight_lint.analysis.scope import dotted_name

    def is_save(node: cst.CSTNode) -> bool:
        if type(node) is not cst.Call:
            return False
        func = node.func
        if type(func) is cst.Attribute and func.attr.value == "save":
            return not node.args or dotted_name(func.value) == "nnsight"
        return type(func) is cst.Name and func.value == "save"

    holders: set = set()
    mixed: set = set()

    class Visitor(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                t = target.target
                if type(t) is cst.Subscript and type(t.value) is cst.Name:
                    (holders if is_save(node.value) else mixed).add(t.value.value)
                elif type(t) is cst.Name and is_save(node.value):
                    holders.add(t.value)

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if (type(func) is cst.Attribute and func.attr.value in ("append", "insert", "extend")
                    and type(func.value) is cst.Name and node.args):
                saved = func.attr.value == "append" and is_save(node.args[0].value)
                (holders if saved else mixed).add(func.value.value)

    module.visit(Visitor())
    return frozenset(holders - mixed)


def rebound_since_trace(model: FileModel, name: str, read: Event) -> bool:
    """Was `name` rebound after the last trace that ran before `read` (outside traces), so that
    `read` no longer sees what that trace left in it (`first, *xs = ...` after the trace)?"""
    ended = [t.end for t in model.traces if t.parent is None and t.end < read.order]
    if not ended:
        return False
    found = binding(model, name, read, within="scope")
    return found is not None and found.where.trace is None and found.order > max(ended)
