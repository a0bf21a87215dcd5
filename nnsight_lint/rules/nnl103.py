"""# NNL103: a later invoke reads an earlier invoke's value before that value exists

## Symptom
Activation patching across invokes fails in the second invoke:

    NameError: name 'clean' is not defined

## Cause
The invokes of a trace run together in one batched forward: each invoke's code runs until it
waits for a module (`.output` / `.input`), then the next invoke's code runs, and so on, module by
module. An invoke sees the names earlier invokes bound, but only those bound by then. A later
invoke that reads `clean` before it waits for any module runs at the very start of the forward,
when the earlier invoke has not reached the module that makes `clean`. This holds for the same
module and for different modules alike. Python evaluates an assignment's right side first:
`model.transformer.h[0].output[:, -1, :] = clean` reads `clean` before it waits for `h[0]`.
Likewise, waiting for `h[0]` first does not help when the earlier invoke makes the value at `h[1]`.

## Wrong code
```python
with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        clean = model.transformer.h[0].output[:, -1, :]
    with tracer.invoke("The Colosseum is in"):
        model.transformer.h[0].output[:, -1, :] = clean  # NNL103
```

## Right code
```python
with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        clean = model.transformer.h[0].output[:, -1, :]
    with tracer.invoke("The Colosseum is in"):
        hidden = model.transformer.h[0].output  # wait for h[0] first
        hidden[:, -1, :] = clean
```
or a `barrier = tracer.barrier(2)` called in both invokes (after making `clean`, before using it).

## Versions
Applies from nnsight 0.5, where invokes became interleaved workers (checked on 0.5.15, 0.6.3,
0.7.0, 0.8.1: the same `NameError`, for the same module and for different modules).

## Fix safety
No automatic fix: which module to wait for is the author's choice.

## How to silence
Put `# noqa: NNL103` on the reported line, or `--ignore NNL103`. Nothing is reported after a
`barrier()` call in the later invoke, for a name also bound before the trace or in the trace
body, or when the module order cannot be decided from the source.
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Set, Tuple

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.flow import bound_before, is_comprehension_target, trace_events
from nnsight_lint.analysis.forward_order import compare
from nnsight_lint.analysis.model import Event, EventKind, ModuleAccess
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL103"
NAME = "cross-invoke-shared-name"
SUMMARY = messages.NNL103_TITLE
DEFAULT = True
SINCE = (0, 5)  # invokes run as interleaved workers since 0.5
BEFORE = None
FIX = None
RAISES = ("NameError", "UnboundLocalError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported: Set[int] = set()
    for trace in model.traces:
        if len(trace.invokes) < 2 or trace.where is None:
            continue
        reached: Dict[int, Optional[Event]] = {}  # invoke -> last module access so far
        barrier: Set[int] = set()  # invokes that called a barrier
        barrier_names: Set[str] = set()
        # (scope, name) -> bindings in evaluation order: (invoke, binding, module reached then)
        bindings: Dict[Tuple[int, str], List[Tuple[int, Event, Optional[Event]]]] = {}
        for event in trace_events(model, trace):
            invoke = event.where.invoke
            key = (id(event.where.scope), event.name)
            if event.kind is EventKind.ACCESS:
                reached[invoke] = event
            elif event.kind is EventKind.CALL and _is_barrier_call(event, barrier_names):
                barrier.add(invoke)
            elif event.kind is EventKind.BIND and not is_comprehension_target(event):
                if isinstance(event.value, cst.Call) and _call_attr(event.value) == "barrier":
                    barrier_names.add(event.name)
                bindings.setdefault(key, []).append((invoke, event, reached.get(invoke)))
            elif event.kind is EventKind.READ and invoke > 0:
                made = bindings.get(key)
                if not made or invoke in barrier or id(event.node) in reported:
                    continue
                source, binding, made_at = made[-1]
                if source == invoke or source == 0 or source > invoke or made_at is None:
                    continue  # its own, the body's, or bound before the earlier invoke waited at all
                if bound_before(model, trace.where.scope, event.name, trace.start):
                    continue  # every invoke starts with the value it had before the trace
                why = _why(made_at, reached.get(invoke), context)
                if why is not None:
                    reported.add(id(event.node))
                    line = context.span(binding.node)[0].line
                    yield context.diagnostic(CODE, event.node, messages.nnl103(event.name, line, why))


def _why(made_at: Event, reached: Optional[Event], context: RuleContext) -> Optional[str]:
    """Why the value cannot exist yet, or None when it may."""
    if reached is None:
        return messages.NNL103_BEFORE_MODULE
    if made_at.path is None or reached.path is None:
        return None
    made = ModuleAccess(made_at.path, _kind(made_at))
    here = ModuleAccess(reached.path, _kind(reached))
    if compare(made, here) != ">":
        return None
    text = lambda e: context.module.code_for_node(e.node)  # noqa: E731
    return messages.nnl103_later_module(text(made_at), text(reached))


def _kind(access: Event) -> str:
    return "input" if access.access in ("input", "inputs") else "output"


def _is_barrier_call(event: Event, barrier_names: Set[str]) -> bool:
    func = event.node.func
    return isinstance(func, cst.Name) and (func.value in barrier_names or "barrier" in func.value)


def _call_attr(call: cst.Call) -> Optional[str]:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None
