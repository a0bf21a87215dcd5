"""# NNL301: nnsight API that the targeted nnsight version removed or changed

## Symptom
Code written for an older nnsight fails on a newer one, e.g.

    AttributeError: 'Tensor' object has no attribute 'value'
    AttributeError: module 'nnsight' has no attribute 'list'
    AttributeError: 'Envoy' object (nor its module) has attribute 'next'
    AttributeError: 'InterleavingTracer' object has no attribute 'apply'

## Cause
nnsight's API changed under its users' feet. Each use is reported only when the project targets
an nnsight where it no longer works (the `target-version` setting, inferred from the project's
declared nnsight requirement):

| old API | gone in | instead |
|---|---|---|
| `saved.value` on a name saved in a trace | 0.4 (saved names are values; on 0.4 not for a trace with `backend=` or `remote=`) | `saved` |
| `.value` on saved values kept in a dict or list | 0.5 | the item itself |
| `tracer.apply(fn, ...)` | 0.5 | `fn(...)` |
| `nnsight.local/cond/iter` | 0.5 | plain Python |
| `nnsight.list()`, `nnsight.dict()`, `nnsight.log()`, `nnsight.apply()`, `nnsight.stop()` | 0.6 | `nnsight.save([])`, `nnsight.save({})`, `print`, a call, `tracer.stop()` |
| `module.next()`, `tracer.next()` | 0.8 | `for step in tracer.iter[...]:` |
| `model.forward(inference=...)` runner | 0.2 | `with model.trace(...)` |

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[-1].output.save()
print(hidden.value.shape)  # NNL301
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[-1].output.save()
print(hidden.shape)
```

## Fix safety
The fix drops `.value` from a saved name (safe: the name is the value itself). Only nnsight's own
saved values are reported: not a name rebound after the trace (an assignment, `def`, `class`, a
`match` capture, star-unpacking, a called function's `global`), not an item of a container that
also holds other objects, not a user's object passed to `nnsight.save` (it may have a `.value` of
its own). 
An old generation loop, `for i in range(N): ...` ending in `model.next()` (0.4) or
`tracer.next()` (0.5-0.7) inside `with model.generate(...) as tracer:`, becomes
`for i in tracer.iter[:N]: ...` without the `.next()` (unsafe: the body now runs while the model generates, one step at a time, so a step
the model never reaches ends the trace body there with a warning, and the loop's name is not
defined after the trace). Only that shape is rewritten: a loop that leaves early (`break`,
`continue`), calls `.next()` elsewhere, counts from another start, or sits in another loop, and a
generate without an `as` name, get a finding that says what to write. The other uses have no
automatic fix.

## How to silence
Put `# noqa: NNL301` on the reported line, set `target-version` to the nnsight the code is written
for, or `--ignore NNL301`. `.value` of anything not saved in a trace (an `Enum` member, your own
objects) is not reported, nor is a version guard that reads it only where it exists
(`x.value if hasattr(x, "value") else x`, `if hasattr(x, "value"):`).

## Versions
Applies from nnsight 0.4; each API from the version in the table.
"""
from __future__ import annotations

from typing import Dict, Iterator, Optional, Set, Tuple

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.flow import binding as bound_before
from nnsight_lint.analysis.flow import containers_of_saves, rebound_since_trace, saved_binding
from nnsight_lint.analysis.model import Event, EventKind
from nnsight_lint.analysis.next_loops import NextLoop, next_loop
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position
from nnsight_lint.rules.context import RuleContext

CODE = "NNL301"
NAME = "legacy-api"
SUMMARY = messages.NNL301_TITLE
DEFAULT = True
SINCE = (0, 4)
BEFORE = None
FIX = "safe"
RAISES = ("AttributeError", "ValueError")  # ValueError: the 0.1 runner calls the bare forward

_REMOVED: Dict[str, Tuple[Tuple[int, int], str]] = {
    "nnsight.list": ((0, 6), "use `nnsight.save([])` inside the trace"),
    "nnsight.dict": ((0, 6), "use `nnsight.save({})` inside the trace"),
    "nnsight.log": ((0, 6), "the trace body is real Python: use `print(...)`"),
    "nnsight.apply": ((0, 6), "the trace body is real Python: call the function directly"),
    "nnsight.stop": ((0, 6), "use `tracer.stop()`"),
    "nnsight.local": ((0, 5), "the trace body is real Python: use the value directly"),
    "nnsight.cond": ((0, 5), "the trace body is real Python: use `if`"),
    "nnsight.iter": ((0, 5), "the trace body is real Python: use `for`, or `tracer.iter[...]` for steps"),
}


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    target = context.target_version
    tracers = {t.tracer for t in model.traces if t.tracer}
    modules = {t.model for t in model.traces if t.model}
    containers: Optional[Set[str]] = None
    for event in model.events:
        if event.kind is EventKind.ATTRIBUTE and event.node.attr.value == "value" and event.store is None:
            if containers is None:
                containers = containers_of_saves(model.module)
            message = _value_message(model, event, containers, target)
            if message is not None:
                yield context.diagnostic(CODE, event.node, message, _drop_value(event, context))
        elif event.kind is EventKind.CALL:
            message = _call_message(event, tracers, modules, target)
            if message is messages.NNL301_NEXT:
                loop = next_loop(event)
                if loop is not None:
                    message = messages.NNL301_NEXT_LOOP if loop.tracer else messages.NNL301_NEXT_LOOP_UNNAMED
                yield context.diagnostic(CODE, event.node, message, _step_loop(loop, context))
            elif message is not None:
                yield context.diagnostic(CODE, event.node, message, _saved_container(model, event, context))


def _value_message(model: FileModel, event: Event, containers: Set[str], target) -> Optional[str]:
    if model.guarded(event.node):  # `x.value if hasattr(x, "value") else x`: cannot raise
        return None
    base = event.base
    if isinstance(base, cst.Subscript) and isinstance(base.value, cst.Name):
        name = base.value.value
        held = name in containers and not rebound_since_trace(model, name, event)
        return messages.NNL301_VALUE_CONTAINER if held and target >= (0, 5) else None
    if not isinstance(base, cst.Name):
        return None
    binding = bound_before(model, base.value, event, within="scope")
    if binding is None:
        return None
    if isinstance(binding.statement, (cst.CompFor, cst.For)):  # an item of a container of saved values
        iterated = _container_name(binding.statement.iter)
        if iterated is not None and iterated in containers and target >= (0, 5):
            return messages.NNL301_VALUE_CONTAINER
        return None
    binding = saved_binding(model, base.value, event)
    if binding is not None:
        if target < (0, 5) and not _injects_values(binding.where.trace):
            return None
        return messages.NNL301_VALUE
    return None


def _injects_values(trace) -> bool:
    """nnsight 0.4 swaps saved names for their values when a trace exits, unless the trace runs on a
    backend of the caller's (`backend=...`) or remotely (`remote=...`): then `.value` is still needed."""
    calls = []
    while trace is not None:
        calls.append(trace.call)
        if trace.session is not None:
            calls.extend(item.item for item in trace.session.items)
        trace = trace.parent
    return not any(
        isinstance(call, cst.Call)
        and any(arg.keyword is not None and arg.keyword.value in ("backend", "remote") for arg in call.args)
        for call in calls
    )


def _call_message(event: Event, tracers: Set[str], modules: Set[str], target) -> Optional[str]:
    call: cst.Call = event.node
    if event.name in _REMOVED:
        since, replacement = _REMOVED[event.name]
        return messages.nnl301_module_function(event.name, replacement) if target >= since else None
    func = call.func
    if not isinstance(func, cst.Attribute):
        return None
    owner = dotted_name(func.value)
    attr = func.attr.value
    if attr == "apply" and owner in tracers and target >= (0, 5):
        return messages.NNL301_APPLY
    if attr == "next" and event.where.trace is not None and target >= (0, 8):
        owner = _path_head(func.value)  # `model.model.layers[0]`: the module path it starts with
        root = event.where.trace.model
        if owner is None:
            return None
        if owner in tracers or (root is not None and (owner == root or owner.startswith(root + "."))):
            return messages.NNL301_NEXT
    if attr == "forward" and owner in modules | {"model"} and any(
        a.keyword is not None and a.keyword.value == "inference" for a in call.args
    ):
        return messages.NNL301_FORWARD
    return None


def _path_head(node: cst.BaseExpression) -> Optional[str]:
    """The dotted name a module path starts with: `model.model.layers` of `model.model.layers[0]`."""
    while isinstance(node, (cst.Subscript, cst.Attribute)) and dotted_name(node) is None:
        node = node.value
    return dotted_name(node)


def _container_name(iterated: cst.BaseExpression) -> Optional[str]:
    """`saved`, `saved.items()`, `saved.values()`: the container's name."""
    if isinstance(iterated, cst.Call) and isinstance(iterated.func, cst.Attribute) and not iterated.args:
        if iterated.func.attr.value in ("items", "values"):
            iterated = iterated.func.value
    return iterated.value if isinstance(iterated, cst.Name) else None


_CONTAINERS = {"nnsight.list": "[]", "nnsight.dict": "{}"}


def _saved_container(model: FileModel, event: Event, context: RuleContext) -> Optional[Fix]:
    """`nnsight.list().save()` -> `nnsight.save([])` (and `dict` -> `{}`), through the module's alias:
    the same saved, empty container that the trace fills (safe). Without `.save()`, no fix."""
    empty = _CONTAINERS.get(event.name)
    module = dotted_name(event.node.func.value) if isinstance(event.node.func, cst.Attribute) else None
    if empty is None or module is None or event.node.args:
        return None
    for save in model.named(EventKind.CALL, "save"):
        if save.base is not None and save.base.value is event.node and not save.node.args:
            start, end = context.span(save.node)
            return Fix((Edit(start, end, f"{module}.save({empty})"),))
    return None


def _step_loop(loop: Optional[NextLoop], context: RuleContext) -> Optional[Fix]:
    """`for i in range(N): ...; model.next()` -> `for i in tracer.iter[:N]: ...` (unsafe: the body
    now runs as the model generates; see the docs' Fix safety)."""
    if loop is None or loop.tracer is None:
        return None
    start, end = context.span(loop.loop.iter)
    first, last = context.span(loop.step.body[0])
    count = context.module.code_for_node(loop.count)
    return Fix((Edit(start, end, f"{loop.tracer}.iter[:{count}]"),
                Edit(Position(first.line, 1), Position(last.line + 1, 1), "")), safe=False)


def _drop_value(event: Event, context: RuleContext) -> Optional[Fix]:
    base = event.base
    if getattr(base, "rpar", None) or event.node.lpar:
        return None
    end_of_base = context.span(base)[1]
    end = context.span(event.node)[1]
    return Fix((Edit(end_of_base, end, ""),))
