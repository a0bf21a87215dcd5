"""Code that runs where no trace is running: module-level code after or between traces, and
functions this file only calls from there. Shared by the rules about nnsight values used outside
a trace (`.save()`, a module's `.output`)."""
from __future__ import annotations

from typing import List, Tuple

import libcst as cst

from nnsight_lint.analysis.model import Event, EventKind, FileModel

# `with` blocks whose body runs in (or as) an nnsight context although the model does not see a
# trace opener there.
CONTEXT_METHODS = frozenset({"trace", "generate", "session", "scan", "edit", "invoke", "iter", "all", "pipe",
                             "stream", "cache", "backward"})


def outside_traces(model: FileModel, event: Event) -> bool:
    """Does the event certainly run where no trace or session is running?"""
    where = event.where
    if where.trace is not None or where.session is not None or where.helper:
        return False
    function = where.function
    if function is None:
        return True
    params = function.params.params
    if id(function) in model.inlined or (params and params[0].name.value in ("self", "cls")):
        return False
    # Only a function this file calls, and only outside traces: a library helper is called elsewhere.
    calls = [e for e in model.events if e.kind is EventKind.CALL and e.name == function.name.value]
    return bool(calls) and all(c.where.trace is None and c.where.session is None for c in calls)


def context_blocks(module: cst.Module, span) -> List[Tuple[object, object]]:
    """The (start, end) positions of the bodies of `with x.<context method>(...)` blocks."""
    blocks: List[Tuple[object, object]] = []

    class Visitor(cst.CSTVisitor):
        def visit_With(self, node: cst.With) -> None:
            for item in node.items:
                call = item.item
                if type(call) is cst.Call and type(call.func) is cst.Attribute and (
                    call.func.attr.value in CONTEXT_METHODS
                ):
                    blocks.append(span(node.body))
                    return

    module.visit(Visitor())
    return blocks
