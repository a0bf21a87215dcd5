"""# NNL505: a `tracer.iter` step at or past `max_new_tokens`

## Symptom
No error where the mistake is. The loop's body never runs, nnsight abandons the rest of the block
the loop is in, and a name bound there is undefined after the trace:

    NameError: name 'logits' is not defined

## Cause
`model.generate(..., max_new_tokens=N)` runs the model N times: steps 0 to N - 1.
`tracer.iter[k]` (or `tracer.iter[k:]`) waits for step k; when generation ends before it, the
loop's body is skipped, and so is every statement after the loop in its block.

## Wrong code
```python
with model.generate("The Eiffel Tower is in", max_new_tokens=3) as tracer:
    with tracer.iter[3]:  # NNL505
        logits = model.lm_head.output.save()
```

## Right code
```python
with model.generate("The Eiffel Tower is in", max_new_tokens=3) as tracer:
    with tracer.iter[2]:  # the last step
        logits = model.lm_head.output.save()
```
Only literal steps and a literal `max_new_tokens=` are compared: `tracer.iter[i]`, a step count
held in a variable, and a generation without `max_new_tokens=` (its length comes from the model's
generation config) are not reported. A slice that starts below the end (`iter[1:10]`) runs the
steps there are.

## Family
NNL5xx, model lifecycle and inputs: see NNL502.

## Fix safety
No automatic fix: whether the step or `max_new_tokens` is wrong is the author's call.

## How to silence
Put `# noqa: NNL505` on the reported line (the loop's step), or `--ignore NNL505`.
"""
from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.calls import iter_first_step, keyword_int
from nnsight_lint.analysis.model import IterLoop
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL505"
NAME = "iter-step-never-runs"
SUMMARY = messages.NNL505_TITLE
DEFAULT = True
SINCE = (0, 5)  # `tracer.iter` came with 0.5
BEFORE = None
FIX = None
RAISES = ("NameError", "UnboundLocalError")
SURFACES = "trace"  # the NameError comes after the trace, for a name its skipped step binds


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    for trace in model.traces:
        if trace.kind != "generate":
            continue
        limit = keyword_int(trace.call, "max_new_tokens")
        if limit is None:
            continue
        for loop in trace.iters:
            iterated = _iterated(loop)
            step = iter_first_step(iterated) if iterated is not None else None
            if step is None or step[0] < limit or context.deliberate(CODE, step[1]):
                continue
            text = context.module.code_for_node(iterated)
            yield context.diagnostic(CODE, step[1], messages.nnl505(step[0], limit, text))


def _iterated(loop: IterLoop) -> Optional[cst.BaseExpression]:
    node = loop.node
    if isinstance(node, cst.For):
        return node.iter
    if isinstance(node, cst.With):
        return next((item.item for item in node.items if iter_first_step(item.item) is not None), None)
    return None
