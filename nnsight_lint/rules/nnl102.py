"""# NNL102: a value bound inside an invoke is read by the trace body, before the invoke runs

## Symptom
Inside `with model.trace() as tracer:`, right after a `with tracer.invoke(...)` block, the trace
body reads a name the invoke just bound and fails:

    NameError: name 'h' is not defined

(`UnboundLocalError` when a helper that opened the invoke returns the name), or, when the name
existed before the trace, silently gets its OLD value.

## Cause
A trace with invokes runs in two steps: first its body runs, only collecting the invokes (their
inputs and code); then all invokes run together in one batched forward, when the trace exits.
So no invoke body has run yet while the trace body runs, whatever the source order says.

## Wrong code
```python
with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        h = model.transformer.h[0].output.save()
    print(h.shape)  # NNL102
```

## Right code
```python
with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        h = model.transformer.h[0].output.save()
print(h.shape)  # after the trace, every invoke has run
```
Inside a later invoke the value can be used too (read that invoke's module first: NNL103).

## Versions
Applies from nnsight 0.5 (checked on 0.5.15 to 0.8.1: `UnboundLocalError` before 0.8, `NameError`
on 0.8). Before 0.5 an invoke built a graph of proxies as it was written.

## Fix safety
No automatic fix: where the read belongs (after the trace, in a later invoke) is the author's choice.

## How to silence
Put `# noqa: NNL102` on the reported line, or `--ignore NNL102`. A name the trace body binds
itself before the read (its own `for` loop variable, an earlier assignment) is not reported.
"""
from __future__ import annotations

from typing import Dict, Iterator, Optional


from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.flow import is_comprehension_target, trace_events
from nnsight_lint.analysis.model import Event, EventKind
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL102"
NAME = "invoke-result-in-trace-body"
SUMMARY = messages.NNL102_TITLE
DEFAULT = True
SINCE = (0, 5)  # before 0.5 a trace built a graph of proxies: the body read gave a proxy
BEFORE = None
FIX = None
RAISES = ("NameError", "UnboundLocalError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for trace in model.traces:
        if not trace.invokes:
            continue
        invoke_lines = {i.index: i.node for i in trace.invokes}
        # The latest binding of each (scope, name) in evaluation order, as the walk goes.
        latest: Dict[tuple, Event] = {}
        for event in trace_events(model, trace):
            key = (id(event.where.scope), event.name)
            if event.kind is EventKind.BIND and not is_comprehension_target(event):
                latest[key] = event
            elif event.kind is EventKind.DELETE:
                latest.pop(key, None)
            elif event.kind is EventKind.READ and event.where.invoke == 0:
                binding: Optional[Event] = latest.get(key)
                if binding is None or binding.where.invoke == 0 or id(event.node) in reported:
                    continue
                reported.add(id(event.node))
                invoke = invoke_lines.get(binding.where.invoke)
                line = context.span(invoke)[0].line if invoke is not None else context.span(binding.node)[0].line
                helper_return = bool(event.where.helper) and _in_return(event, context)
                yield context.diagnostic(CODE, event.node, messages.nnl102(event.name, line, helper_return))


def _in_return(event: Event, context: RuleContext) -> bool:
    return context.line_text(context.span(event.node)[0].line).lstrip().startswith("return")
