"""# NNL204: a trace without input and without `tracer.invoke`

## Symptom
A trace fails at its first module read with an error that says it is not in a trace:

    ValueError: Cannot access `model.lm_head.output` outside of interleaving

(`ValueError: trace() needs an input, or at least one `with tracer.invoke(...)` block` when the
body reads no module; `AttributeError: ... has no attribute 'mediator'` from a `tracer.iter` loop).

## Cause
`model.trace()` / `model.generate(max_new_tokens=...)` without an input runs its body at once, to
collect `tracer.invoke(...)` blocks whose inputs make the batch. With no invoke there is no batch
and no forward yet, so the body's module reads happen outside any model run.

## Wrong code
```python
with model.generate(max_new_tokens=3) as tracer:  # NNL204
    logits = model.lm_head.output.save()
```

## Right code
```python
with model.generate("The Eiffel Tower is in", max_new_tokens=3) as tracer:
    logits = model.lm_head.output.save()
```
or keep the trace input-less and open `with tracer.invoke("The Eiffel Tower is in"):`.

## What counts as an input
See NNL203: positional arguments and data keywords (`input_ids=`, `inputs_embeds=`, ...) are
inputs; settings (`max_new_tokens=`, `max_length=`, `do_sample=`, `remote=`, ...) are not;
`*args`, `**kwargs` and unfamiliar keywords are unknown and never make a finding. A trace whose
tracer is handed to a function is not reported either (the function may open the invokes);
helpers defined in the same file are looked into.

## Fix safety
No automatic fix: the input is the author's.

## Opened on the trace's own line
`with model.trace() as tracer, tracer.invoke(ids):` fails too (`AttributeError: 'NoneType' object
has no attribute 'add'`): the invoke is entered before the trace collects invokes. The message
says so; open the invoke in its own `with` inside the trace body.

## How to silence
Put `# noqa: NNL204` on the reported line (the `with` line), or `--ignore NNL204`.
"""
from __future__ import annotations

from typing import Iterator

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.calls import call_attr
from nnsight_lint.analysis.model import EventKind, Trace, Tri
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL204"
NAME = "trace-no-input"
SUMMARY = messages.NNL204_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("ValueError", "AttributeError", "NNsightException")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for trace in model.traces:
        if trace.has_input is not Tri.NO or trace.invokes or _tracer_handed_on(model, trace):
            continue
        if id(trace.call) not in reported:
            reported.add(id(trace.call))
            opener = context.module.code_for_node(trace.call.func)
            invoke = _invoke_on_with_line(trace)
            if invoke is not None:
                message = messages.nnl204_same_line(opener, context.module.code_for_node(invoke.func))
            else:
                message = messages.nnl204(opener)
            yield context.diagnostic(CODE, trace.call, message)


def _invoke_on_with_line(trace: Trace):
    """`with model.trace() as t, t.invoke(ids):` — the invoke call sharing the trace's `with`."""
    for item in trace.node.items:
        value = item.item
        if value is not trace.call and call_attr(value) == "invoke" and isinstance(value.func, cst.Attribute):
            return value
    return None


def _tracer_handed_on(model: FileModel, trace: Trace) -> bool:
    """Is the tracer passed to a call, which may open the invokes out of the linter's sight?"""
    if trace.tracer is None:
        return False
    for event in model.trace_events(trace):
        if event.kind is EventKind.CALL and any(
            type(arg.value) is cst.Name and arg.value.value == trace.tracer for arg in event.node.args
        ):
            return True
    return False
