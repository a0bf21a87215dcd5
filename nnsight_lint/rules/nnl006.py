"""# NNL006: `no_grad`/`inference_mode` inside a trace around a module access

## Symptom
A trace with `with torch.no_grad():` around a module read fails later with an `OutOfOrderError`
naming a tensor id on an EARLIER layer's `.grad`, with `cannot register a hook on a tensor that
doesn't require gradient`, with "appears to not have been used in the graph" — or, with a plain
`backward()`, silently leaves the earlier parameters without gradients. With
`torch.inference_mode()` the trace fails even without any backward:

    RuntimeError: Inference tensors cannot be saved for backward. ...

## Cause
Since nnsight 0.8 the intervention code runs on the model's thread: while the body waits for a
module, the grad mode it set is the grad mode of the model's forward. A `no_grad` block around
`model.transformer.h[1].output` runs the forward up to `h[1]` without autograd, so the graph is
cut there and no gradient reaches anything before it. Inference mode makes the tensors of that
part of the forward inference tensors, which the rest of the forward (with autograd on) cannot
use.

## Wrong code
```python
import torch

with model.trace("The Eiffel Tower is in"):
    first = model.transformer.h[0].output
    with torch.no_grad():  # NNL006
        second = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        grad = first.grad.save()  # OutOfOrderError
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    first = model.transformer.h[0].output
    second = model.transformer.h[1].output.detach()  # no gradient needed through this value
    with model.lm_head.output.sum().backward():
        grad = first.grad.save()
```
`no_grad` around arithmetic on values already read is fine; so is a whole trace inside
`inference_mode` (or `no_grad`) when it computes no gradients.

## Versions
Applies from nnsight 0.8, where the intervention code runs on the model's thread.

## Fix safety
No automatic fix.

## How to silence
Put `# noqa: NNL006` on the `with` line, or `--ignore NNL006`. A `no_grad` block is reported only
when a backward or a `.grad` read comes after the access in the trace; `inference_mode` always.
"""
from __future__ import annotations

from typing import Iterator

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.model import EventKind
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL006"
NAME = "grad-mode-spans-module-access"
SUMMARY = messages.NNL006_TITLE
DEFAULT = True
SINCE = (0, 8)  # interventions run on the model's thread from 0.8 on
BEFORE = None
FIX = None
RAISES = ("OutOfOrderError", "RuntimeError")
SURFACES = "trace"  # the error comes at the backward or `.grad` read, not at the `with` reported


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for trace in model.traces:
        if trace.kind != "trace" or trace.grad_disabled:
            continue
        events = list(model.trace_events(trace))
        backward_calls = {id(call.call) for call in trace.backwards}
        # What needs gradients: a backward call, or a `.grad` read or write.
        needs = [e for e in events if e.kind is EventKind.GRAD or (e.kind is EventKind.CALL and id(e.node) in backward_calls)]
        for event in events:
            if event.kind is not EventKind.ACCESS or not event.rooted or event.where.grad_mode is None:
                continue
            mode, block = event.where.grad_mode
            if id(block) in reported:
                continue
            later = next((need for need in needs if need.order > event.order), None)
            if mode == "no_grad" and later is None:
                continue  # nothing after it needs gradients: harmless
            reported.add(id(block))
            access = context.module.code_for_node(event.node)
            line = None if later is None else context.span(later.node)[0].line
            yield context.diagnostic(CODE, _opener(block), messages.nnl006(mode, access, line))


def _opener(block: cst.With) -> cst.CSTNode:
    """The `torch.no_grad()` item of the `with` (its line is the `with` line)."""
    for item in block.items:
        text = item.item.func if isinstance(item.item, cst.Call) else item.item
        name = text.attr.value if isinstance(text, cst.Attribute) else getattr(text, "value", "")
        if name in ("no_grad", "inference_mode", "set_grad_enabled"):
            return item.item
    return block
