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
The fix drops `.value` from a saved name (safe: the name is the value itself). The other uses have
no automatic fix.

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
from nnsight_lint.analysis.model import Event, EventKind
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix
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
                containers = _holders_of_saves(model.module)
            message = _value_message(model, event, containers, target)
            if message is not None:
                yield context.diagnostic(CODE, event.node, message, _drop_value(event, context))
        elif event.kind is EventKind.CALL:
            message = _call_message(event, tracers, modules, target)
            if message is not None:
                yield context.diagnostic(CODE, event.node, message)


def _value_message(model: FileModel, event: Event, containers: Set[str], target) -> Optional[str]:
    if model.guarded(event.node):  # `x.value if hasattr(x, "value") else x`: cannot raise
        return None
    base = event.base
    if isinstance(base, cst.Subscript) and isinstance(base.value, cst.Name):
        return messages.NNL301_VALUE_CONTAINER if base.value.value in containers and target >= (0, 5) else None
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
    saved = binding.saved or any(
        e.kind is EventKind.SAVE and isinstance(e.base, cst.Name) and e.base.value == base.value
        and binding.order < e.order < event.order for e in model.events
    )
    if saved and binding.where.trace is not None and event.where.trace is None:
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
    if attr == "next" and event.where.trace is not None and target >= (0, 8) and owner is not None:
        root = event.where.trace.model
        if owner in tracers or (root is not None and (owner == root or owner.startswith(root + "."))):
            return messages.NNL301_NEXT
    if attr == "forward" and owner in modules | {"model"} and any(
        a.keyword is not None and a.keyword.value == "inference" for a in call.args
    ):
        return messages.NNL301_FORWARD
    return None


def _container_name(iterated: cst.BaseExpression) -> Optional[str]:
    """`saved`, `saved.items()`, `saved.values()`: the container's name."""
    if isinstance(iterated, cst.Call) and isinstance(iterated.func, cst.Attribute) and not iterated.args:
        if iterated.func.attr.value in ("items", "values"):
            iterated = iterated.func.value
    return iterated.value if isinstance(iterated, cst.Name) else None


def _holders_of_saves(module: cst.Module) -> Set[str]:
    """Names of lists and dicts that hold saved values: `d[k] = x.save()`, `xs.append(x.save())`,
    or themselves saved (`xs = nnsight.list().save()`)."""
    holders: Set[str] = set()

    class Visitor(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                t = target.target
                if isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and _is_save(node.value):
                    holders.add(t.value.value)
                elif isinstance(t, cst.Name) and _is_save(node.value):
                    holders.add(t.value)

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if (isinstance(func, cst.Attribute) and func.attr.value == "append" and isinstance(func.value, cst.Name)
                    and node.args and _is_save(node.args[0].value)):
                holders.add(func.value.value)

    module.visit(Visitor())
    return holders


def _is_save(node: cst.CSTNode) -> bool:
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "save":
        return not node.args or dotted_name(func.value) == "nnsight"
    return isinstance(func, cst.Name) and func.value == "save"


def _drop_value(event: Event, context: RuleContext) -> Optional[Fix]:
    base = event.base
    if getattr(base, "rpar", None) or event.node.lpar:
        return None
    end_of_base = context.span(base)[1]
    end = context.span(event.node)[1]
    return Fix((Edit(end_of_base, end, ""),))
