"""# NNL203: `tracer.invoke` inside an invoke, an iter loop, or a trace that already has an input

## Symptom
    ValueError: Cannot invoke while the model is already running.

## Cause
A trace without input first runs its body to collect its invokes, then runs the model once with
all their inputs batched; each invoke's body runs during that forward. An invoke opened inside an
invoke's body, inside a `tracer.iter` loop, or anywhere in a trace that got its own input (whose
whole body is one implicit invoke, running during the forward) is opened while the model runs.

## Wrong code
```python
with model.trace("The Eiffel Tower is in") as tracer:
    with tracer.invoke("The Colosseum is in"):  # NNL203
        hidden = model.transformer.h[0].output.save()
```

## Right code
```python
with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        first = model.transformer.h[0].output.save()
    with tracer.invoke("The Colosseum is in"):
        second = model.transformer.h[0].output.save()
```
Sibling invokes may be made in a loop, under an `if`, or by a helper that takes the tracer.

## What counts as an input
A positional argument, or a keyword nnsight reads as data (`input_ids=`, `inputs_embeds=`,
`text=`, `images=`, ...). `*args`, `**kwargs` and keywords the linter does not know (vLLM's
`temperature=`, diffusion's `num_inference_steps=`, `attention_mask=`) are unknown and never make
a finding.

## Fix safety
No automatic fix: which inputs belong together is the author's call.

## How to silence
Put `# noqa: NNL203` on the reported line (the nested `tracer.invoke(` call), or `--ignore NNL203`.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.model import Tri
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL203"
NAME = "nested-invoke"
SUMMARY = messages.NNL203_TITLE
DEFAULT = True
SINCE = BEFORE = None  # 0.7 said "Cannot invoke during an active model execution / interleaving."
FIX = None
RAISES = ("ValueError", "NNsightException")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for trace in model.traces:
        for invoke in trace.invokes:
            if invoke.where.invoke:
                why = "invoke"
            elif invoke.where.iter is not None:
                why = "iter"
            elif trace.has_input is Tri.YES:
                why = "input"
            else:
                continue
            if id(invoke.call) not in reported:
                reported.add(id(invoke.call))
                yield context.diagnostic(CODE, invoke.call, messages.nnl203(why))
