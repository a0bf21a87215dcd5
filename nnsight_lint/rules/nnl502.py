"""# NNL502: an empty prompt or an empty batch

## Symptom
A trace, a generation or an invoke given `""` or `[]` fails deep inside nnsight or the model:

    RuntimeError: cannot reshape tensor of 0 elements into shape [-1, 0] ...

(`IndexError: index is out of bounds for dimension with size 0` from `model.generate("")`,
`ValueError: Cannot access `model.lm_head.output` outside of interleaving` from `model.trace([])`).

## Cause
The wrapper tokenizes each prompt and batches the token rows. An empty string makes no token and
an empty list no row, so the model gets a tensor with nothing in it (or no batch at all).

## Wrong code
```python
with model.trace(""):  # NNL502
    logits = model.lm_head.output.save()
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    logits = model.lm_head.output.save()
```
Not reported: a prompt held in a variable, a batch with at least one non-empty prompt
(`["hello", ""]` is padded and runs), whitespace (`" "`, which most tokenizers do turn into a token).

## Family
NNL5xx is "model lifecycle and inputs": what the wrapper object and the inputs handed to it must
be before a trace can run (dispatch, inputs, tokenizer, modules used outside their trace, envoys).

## Fix safety
No automatic fix: the prompt is the author's.

## How to silence
Put `# noqa: NNL502` on the reported line (the empty argument), or `--ignore NNL502`.
"""
from __future__ import annotations

from typing import Iterator

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.calls import empty_input
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL502"
NAME = "empty-input"
SUMMARY = messages.NNL502_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("RuntimeError", "IndexError", "ValueError")
SURFACES = "trace"  # an invoke's empty prompt fails when the trace runs its batch


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    calls = [trace.call for trace in model.traces] + [i.call for t in model.traces for i in t.invokes]
    for call in calls:
        empty = empty_input(call) if call is not None else None
        if empty is None or id(empty) in reported or context.deliberate(CODE, empty):
            continue
        reported.add(id(empty))
        what = "an empty prompt" if isinstance(empty, cst.SimpleString) else (
            "an empty batch" if not empty.elements else "only empty prompts")
        yield context.diagnostic(CODE, empty, messages.nnl502(context.module.code_for_node(call.func), what))
