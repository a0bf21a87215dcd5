"""# NNL105: `.save()` / `nnsight.save()` where no trace is running

## Symptom
On nnsight 0.8:

    ValueError: save() was called outside a trace. `.save()` / nnsight.save(x) marks a value to
    return from the enclosing `with model.trace(...):` block, so it only works inside one ...

On 0.6 a tensor's `.save()` raises `RuntimeError: .save() called outside of a trace context`, on 0.5
`AttributeError: 'Tensor' object has no attribute 'save'`; on 0.7, and for `nnsight.save(...)`
before 0.8, the save silently does nothing.

## Cause
`.save()` marks a value to be handed back when the enclosing trace exits. Outside every trace
(module level, after the trace, between the traces of a loop, in a function only called from
there) there is nothing to hand it back from.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    logits = model.lm_head.output.save()
top = logits[:, -1].argmax(-1).save()  # NNL105
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    logits = model.lm_head.output.save()
    top = logits[:, -1].argmax(-1).save()
```
or simply `top = logits[:, -1].argmax(-1)` after the trace: a value outside a trace needs no save.
Not reported: `torch.save(x, path)`, `tokenizer.save_pretrained(path)` and other `save` calls with
arguments; a save in a helper called inside a trace; a save in a session body.

## Versions
Applies from nnsight 0.5; the message says what the targeted version does (see Symptom).

## Fix safety
No automatic fix: whether the save belongs in the trace or can go is the author's choice.

## How to silence
Put `# noqa: NNL105` on the reported line, or `--ignore NNL105`. A function that is never called
in its file (a library helper meant to be called inside a trace elsewhere) is not reported.
"""
from __future__ import annotations

from typing import Iterator, Tuple

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.model import EventKind
from nnsight_lint.analysis.outside import context_blocks, outside_traces
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL105"
NAME = "save-outside-trace"
SUMMARY = messages.NNL105_TITLE
DEFAULT = True
SINCE = (0, 5)
BEFORE = None
FIX = None
RAISES = ("ValueError", "RuntimeError", "AttributeError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    candidates = [e for e in model.events if e.kind is EventKind.SAVE and outside_traces(model, e)]
    if not candidates:
        return
    blocks = context_blocks(model.module, context.span)
    raises = _what_happens(context.target_version)
    for event in candidates:
        start = context.span(event.node)[0]
        if any(first <= start < last for first, last in blocks):
            continue
        yield context.diagnostic(CODE, event.node, messages.nnl105(raises))


def _what_happens(target: Tuple[int, int]) -> str:
    if target >= (0, 8):
        return "nnsight raises ValueError"
    if target >= (0, 7):
        return "it saves nothing"
    if target >= (0, 6):
        return "a tensor's `.save()` raises RuntimeError; `nnsight.save` saves nothing"
    return "a tensor has no `.save()` there (AttributeError); `nnsight.save` saves nothing"
