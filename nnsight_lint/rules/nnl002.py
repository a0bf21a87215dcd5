"""# NNL002: `.grad` of an activation read outside `with loss.backward():`

## Symptom
No error: the gradient you saved is `None` (nnsight 0.8), or the saved name is never defined
(`NameError` after the trace, nnsight 0.5-0.7). torch only warns that "the .grad attribute of a
Tensor that is not a leaf Tensor is being accessed".

## Cause
Since nnsight 0.5, gradients of activations are served only inside a `with loss.backward():`
block, which runs the backward interleaved with its body. Outside it, `.grad` is plain torch: an
activation is not a leaf, so torch never fills its `.grad`. The nnsight <= 0.4 idiom
(`h.grad.save()` and then a plain `loss.backward()`) therefore gives nothing on 0.5+.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[0].output
    grad = hidden.grad.save()  # NNL002: None
    model.lm_head.output.sum().backward()
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():
        grad = hidden.grad.save()
```
Plain torch works too when the activation keeps its gradient: `hidden.retain_grad()` before a
plain `backward()`, then `hidden.grad` after it.

## Versions
Applies from nnsight 0.5; on 0.4 (`target-version = "0.4"`) the old idiom was right and nothing
is reported.

## Fix safety
No automatic fix: the read has to move into a backward block, which may need restructuring.

## How to silence
Put `# noqa: NNL002` on the reported line, or `--ignore NNL002`. Parameters (`.weight.grad`),
leaf tensors made with `requires_grad=True`, and activations after `retain_grad()` are not
reported.
"""
from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.flow import binding
from nnsight_lint.analysis.gradients import calls_on, reads_access, root_name
from nnsight_lint.analysis.model import Event, EventKind
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL002"
NAME = "grad-outside-backward"
SUMMARY = messages.NNL002_TITLE
DEFAULT = True
SINCE = (0, 5)  # on 0.4, `.grad.save()` before a plain backward was the documented idiom
BEFORE = None
FIX = None
RAISES = ("NameError",)  # nnsight 0.5-0.7: the saved name is never defined
WARNS = (messages.TORCH_NON_LEAF_GRAD,)  # torch's only sign on 0.8: the runtime hook re-tells it


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for event in model.events:
        where = event.where
        if (
            event.kind is not EventKind.GRAD
            or event.store is not None
            or where.trace is None
            or where.trace.kind != "trace"
            or where.backward is not None
            or id(event.node) in reported
        ):
            continue
        if _activation(model, event) and not _retained(model, event):
            reported.add(id(event.node))
            yield context.diagnostic(CODE, event.node, messages.nnl002(context.target_version))


def _activation(model: FileModel, event: Event) -> bool:
    """Is `.grad` read on a module's output or input (directly, or through a name bound to one)?"""
    if reads_access(event.base):
        return event.rooted
    name = _holder(event.base)
    if name is None:
        return False
    bound = binding(model, name, event)
    if bound is None or _makes_leaf(bound.value):
        return False
    if bound.from_model:
        return True
    # `for act in acts:` where `acts = []` was filled with `acts.append(layer.output)`
    iterated = getattr(bound.statement, "iter", None)
    if type(iterated) is cst.Call and dotted_name(iterated.func) in ("reversed", "enumerate") and iterated.args:
        iterated = iterated.args[0].value
    return type(iterated) is cst.Name and any(
        call.order < event.order and call.node.args and reads_access(call.node.args[0].value)
        for call in calls_on(model, iterated.value, "append", event.where.trace)
    )


def _makes_leaf(value: Optional[cst.CSTNode]) -> bool:
    """A value cut from the graph (`x.detach()`, `x.detach().requires_grad_()`): a leaf, or no
    gradient at all, but not an activation whose gradient torch drops."""
    while type(value) is cst.Call and type(value.func) is cst.Attribute:
        if value.func.attr.value == "detach":
            return True
        value = value.func.value
    return False


def _holder(node: cst.CSTNode) -> Optional[str]:
    """`hidden` for `hidden` or `acts[i]`: the name whose value the gradient is read on (not an
    attribute of it: `probe.weight` is a parameter)."""
    while type(node) is cst.Subscript:
        node = node.value
    return node.value if type(node) is cst.Name else None


def _retained(model: FileModel, event: Event) -> bool:
    """`<name>.retain_grad()` earlier in the trace: torch keeps the activation's gradient."""
    root = root_name(event.base)
    return root is not None and any(
        call.order < event.order for call in calls_on(model, root.value, "retain_grad", event.where.trace)
    )
