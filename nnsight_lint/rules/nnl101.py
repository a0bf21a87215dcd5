"""# NNL101: a value bound inside a trace is read after it without `.save()`

## Symptom
Right after the `with model.trace(...)` block a name that was just assigned inside it fails:

    NameError: name 'h' is not defined

(`UnboundLocalError` in a function), or, when the name existed before the trace, it silently
keeps its OLD value (`h = None` before the trace is still `None` after it).

## Cause
nnsight runs the trace body in a scope of its own and, when the outermost trace (or the session
it runs in) exits, hands back to your code only the values marked with `.save()` /
`nnsight.save(...)`, by object identity. A value computed from a saved one (`x = x * 2`), or a list
of saved items built inside the trace, is a new object nobody marked.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    h = model.transformer.h[0].output  # NNL101
print(h.shape)
```

A lambda written after the trace (`sorted(xs, key=lambda i: h[i])`) reads `h` too: it is
reported as a read where the lambda stands.

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    h = model.transformer.h[0].output.save()
print(h.shape)
```
Not reported: `x.save()` / `nnsight.save(x)` as a statement, a same-file helper or method that
returns a saved value, an alias of a saved value, a list or dict made before the trace (or saved
itself) that collects values, values flowing between the traces of one `model.session()`, and a
name rebound after the trace before it is read.

## Versions
Applies from nnsight 0.5 (checked on 0.5.15, 0.6.3, 0.7.0, 0.8.1). On 0.4 the unsaved name stays
bound to a proxy whose value was never set (`ValueError: Accessing value before it's been set`).

## Fix safety
Every binding the read may see is reported: the last one, and those in the other arms of an
`if`/`elif`/`else`, `try`/`except`, `match` or a loop's `else:` (a loop's body is taken to run).
The fix appends `.save()` to each that is a plain `name = <expr>` statement. It is safe: it only
marks the value to leave the trace.

## How to silence
Put `# noqa: NNL101` on the reported line (the binding), or `--ignore NNL101`. A value that comes
from a function the analysis cannot see (defined in another file) is not reported.
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Optional

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.flow import (
    context_scope,
    first_after,
    helper_saves,
    is_comprehension_target,
    outermost_contexts,
    own_name_events,
    reaching,
    saved_names,
)
from nnsight_lint.analysis.model import Event, EventKind
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix
from nnsight_lint.rules.context import RuleContext

CODE = "NNL101"
NAME = "unsaved-escape"
SUMMARY = messages.NNL101_TITLE
DEFAULT = True
SINCE = (0, 5)  # before 0.5 the name stays bound to an unset proxy: a different error
BEFORE = None
FIX = "safe"
RAISES = ("NameError", "UnboundLocalError")
# The error is raised at the read after the trace: `check` asks whether that read is a demo, and a
# `try` around a binding (whose other arm binds the name too) hides nothing.
DELIBERATE_WHERE_RAISED = True

_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.List, cst.Dict, cst.Set, cst.ListComp,
          cst.DictComp, cst.SetComp)


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    for outer in outermost_contexts(model):
        scope = context_scope(model, outer)
        if scope is None:
            continue
        bindings: Dict[str, List[Event]] = {}
        for event in own_name_events(model, scope, outer.start, outer.end):
            if event.kind is EventKind.BIND and not is_comprehension_target(event):
                bindings.setdefault(event.name, []).append(event)
        last = {name: events[-1] for name, events in bindings.items()}
        saves = saved_names(model, outer.start, outer.end)
        for name, events in bindings.items():
            unsaved = [b for b in reaching(events) if b.from_model and not _escapes(model, b, saves, last)]
            if not unsaved:
                continue
            read = first_after(own_name_events(model, scope, outer.end), name)
            if read is None or read.kind is not EventKind.READ:
                continue
            had_old = any(
                e.kind is EventKind.BIND and e.name == name for e in own_name_events(model, scope, -1, outer.start)
            )
            line = context.span(read.node)[0].line
            for binding in unsaved:  # every binding the read may see (each arm of an if, try, match)
                found = context.diagnostic(CODE, binding.node, messages.nnl101(name, line, had_old), _fix(binding, context))
                if context.deliberate(CODE, read.node):  # the read that fails is the demo
                    context.hide(found)
                    continue
                yield found


def _escapes(model: FileModel, binding: Event, saves, last: Dict[str, Event]) -> bool:
    """Is the object bound here marked to leave the trace (or could it be, unseen)?"""
    if binding.saved or any(order > binding.order for order in saves.get(binding.name, ())):
        return True
    value = binding.value
    if isinstance(value, cst.Name):  # an alias of a saved object is the saved object
        other = last.get(value.value)
        return value.value in saves or (other is not None and other.saved)
    if isinstance(value, cst.Call):
        func = value.func
        is_helper = isinstance(func, cst.Name) or (
            isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"
        )
        if is_helper:
            saves_inside: Optional[bool] = helper_saves(model, value)
            if saves_inside is None:  # not a helper of this file: it may return a saved value
                return not (isinstance(func, cst.Name) and func.value in _BUILTIN_CALLS)
            return saves_inside
    return False


_BUILTIN_CALLS = frozenset({"list", "dict", "tuple", "set", "sorted", "sum", "max", "min", "abs", "float", "int"})


def _fix(binding: Event, context: RuleContext) -> Optional[Fix]:
    statement = binding.statement
    if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
        return None
    if statement.targets[0].target is not binding.node:
        return None
    value = statement.value
    start, end = context.span(value)
    if isinstance(value, _ATOMS):
        return Fix((Edit(end, end, ".save()"),))
    return Fix((Edit(start, start, "("), Edit(end, end, ").save()")))
