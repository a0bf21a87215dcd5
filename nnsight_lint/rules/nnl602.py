"""# NNL602: a gradient in a remote block where nothing asks for one

## Symptom
A trace that takes gradients runs on your machine, and fails on NDIF after its time in the queue:

    NotImplementedError: This tensor does not require grad, so a backward session cannot produce gradients
    RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn

## Cause
A model loaded on your machine has parameters that require grad, so every forward builds an
autograd graph. NDIF serves its models with every parameter frozen (nnsight issue #251: "by default
the params of the model do not require grad ... as if it was under `torch.no_grad()`"): a remote
forward builds a graph only from a value the block asks one for, with `.requires_grad_(True)` (as
nnsight's gradient docs and its remote attribution-patching tutorial write it). Without one, the
loss has no graph and the backward fails (nnsight 0.8.1 `intervention/backward.py`; torch for a
plain `.backward()`). Checked by freezing the tiny model's parameters as NDIF serves them and
running the block with `remote="local"`, which builds and runs the same request.

## Wrong code
```python
with model.trace("The Eiffel Tower is in", remote=True):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():  # NNL602
        grad = hidden.grad.save()
```

## Right code
```python
with model.trace("The Eiffel Tower is in", remote=True):
    hidden = model.transformer.h[0].output
    hidden.requires_grad_(True)  # NDIF's parameters are frozen: ask for the graph here
    with model.lm_head.output.sum().backward():
        grad = hidden.grad.save()
```
Not reported: local traces (the parameters require grad there), and a remote block in a file that
sets `requires_grad` on anything before the backward (`.requires_grad_()`, `.requires_grad = True`,
`requires_grad=True`; in code, not in a comment or a string): where it is set is not followed.

## Family
NNL6xx, remote: see NNL601.

## Versions
Grounded in nnsight 0.8.1 (the backward session's check and `remote="local"`); applies from 0.8.

## Fix safety
No automatic fix: which value the gradient is wanted of is the author's call.

## How to silence
Put `# noqa: NNL602` on the reported line (the backward), or `--ignore NNL602`.
"""
from __future__ import annotations

import io
import re
import tokenize
from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.remote import remote_blocks
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL602"
NAME = "remote-grad-no-requires-grad"
SUMMARY = messages.NNL602_TITLE
DEFAULT = True
SINCE = (0, 8)
BEFORE = None
FIX = None
RAISES = ("NotImplementedError", "RuntimeError")
SURFACES = "trace"

# `x.requires_grad_()`, `x.requires_grad_(True)`, `x.requires_grad = True`, `requires_grad=True`:
# anything that may turn it on (not `(False)` / `= False`).
_ASKS = re.compile(r"\brequires_grad(?:_\(\s*(?!False\b)|\s*=(?!=)\s*(?!False\b))")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    if "remote" not in context._text or "backward" not in context._text:
        return
    blocks = remote_blocks(model)
    if not blocks:
        return
    for trace in model.traces:
        block = next((b for b in blocks if b.start <= trace.start and trace.end <= b.end), None)
        if block is None:
            continue
        for backward in trace.backwards:
            if backward.name.value != "backward":
                continue
            line = context.start(backward.name).line
            if _asks_before(context.lines, line) or context.deliberate(CODE, backward.name):
                continue
            opener = model.module.code_for_node(block.call.func)
            yield context.diagnostic(CODE, backward.name, messages.nnl602(model.module.code_for_node(backward.call),
                                                                          opener))


def _asks_before(lines, line: int) -> bool:
    """Does code (not a comment or a string: `# x.requires_grad = True` asks for nothing) up to
    `line` set `requires_grad`? Text that does not tokenize counts as it stands."""
    text = "\n".join(lines[:line]) + "\n"
    if not _ASKS.search(text):
        return False
    rows = text.split("\n")
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.COMMENT, tokenize.STRING):
                (first, start), (last, end) = token.start, token.end
                for row in range(first - 1, last):
                    left = start if row == first - 1 else 0
                    right = end if row == last - 1 else len(rows[row])
                    rows[row] = rows[row][:left] + " " * (right - left) + rows[row][right:]
    except (tokenize.TokenError, SyntaxError):
        return True
    return bool(_ASKS.search("\n".join(rows)))
