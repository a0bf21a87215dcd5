"""# NNL003: gradients read in forward order inside one backward block

## Symptom
Inside `with loss.backward():`, the second `.grad` read fails with

    OutOfOrderError: '140231...grad.i0' was requested but the model already ran past it

The error names only a tensor id, not the variable.

## Cause
A backward block runs the backward pass interleaved with its body: each `.grad` read (or write)
waits until autograd reaches that tensor. Autograd visits tensors in REVERSE forward order, so
after waiting for an early layer's gradient, a later layer's gradient has already gone by.
Assigning `h.grad = ...` waits the same way.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    early = model.transformer.h[0].output
    late = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        early_grad = early.grad.save()
        late_grad = late.grad.save()  # NNL003
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    early = model.transformer.h[0].output
    late = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        late_grad = late.grad.save()  # the later layer first
        early_grad = early.grad.save()
```
For a list of layer outputs filled in forward order, loop with `reversed(...)`.

## Versions
Applies from nnsight 0.5, where gradients are read inside `with loss.backward():`.

## Fix safety
No automatic fix: reordering statements can change what a gradient edit affects.

## How to silence
Put `# noqa: NNL003` on the reported line, or `--ignore NNL003`. Only orders the source decides
are reported: literal layer indices, Hugging Face module names, nesting, and lists built from the
layers in forward order and read in a plain loop.
"""
from __future__ import annotations

from typing import Iterator, List, Optional, Tuple

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.forward_order import compare
from nnsight_lint.analysis.flow import binding
from nnsight_lint.analysis.gradients import calls_on, captured_at, reads_access, root_name
from nnsight_lint.analysis.model import Event, EventKind, ModuleAccess
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext, measured_order

CODE = "NNL003"
NAME = "grad-order"
SUMMARY = messages.NNL003_TITLE
DEFAULT = True
SINCE = (0, 5)  # gradients inside `with loss.backward():` came with nnsight 0.5
BEFORE = None
FIX = None
RAISES = ("OutOfOrderError",)

_REORDERING = ("reverse", "sort", "insert")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for trace in model.traces:
        for block in trace.backward_blocks:
            earlier: List[Tuple[Event, ModuleAccess, str]] = []
            for event in model.trace_events(trace):
                if event.kind is not EventKind.GRAD or event.where.backward is not block or reads_access(event.base):
                    continue
                label = context.module.code_for_node(event.base)
                position, forward_loop = _tensor(model, event)
                if forward_loop and id(event.node) not in reported:
                    reported.add(id(event.node))
                    yield context.diagnostic(CODE, event.node, messages.nnl003_loop(label))
                if position is None:
                    continue
                for first, first_position, first_label in earlier:
                    if (
                        first_label != label
                        and not first.where.excludes(event.where)
                        and compare(first_position, position, measured_order(trace, context)) == "<"
                        and id(event.node) not in reported
                    ):
                        reported.add(id(event.node))
                        line = context.span(first.node)[0].line
                        yield context.diagnostic(CODE, event.node, messages.nnl003(label, first_label, line))
                        break
                earlier.append((event, position, label))


def _tensor(model: FileModel, event: Event) -> Tuple[Optional[ModuleAccess], bool]:
    """Where the tensor a `.grad` is on was captured; and whether the read runs in a loop that
    walks tensors captured in forward order, in that order."""
    base = event.base
    if type(base) is cst.Name:
        bound = binding(model, base.value, event)
        if bound is None:
            return None, False
        iterated = getattr(bound.statement, "iter", None)
        if iterated is not None:  # `for activation in captured:`
            return None, type(iterated) is cst.Name and _forward_list(model, iterated.value, event)
        return (captured_at(model, bound.value, event.where.trace) if bound.value is not None else None), False
    if type(base) is cst.Subscript and type(base.value) is cst.Name and len(base.slice) == 1:
        index = base.slice[0].slice
        if isinstance(index, cst.Index) and type(index.value) is cst.Name:
            counter = binding(model, index.value.value, event)
            iterated = getattr(counter.statement, "iter", None) if counter is not None else None
            return None, _ascending_range(iterated) and _forward_list(model, base.value.value, event)
    return None, False


def _forward_list(model: FileModel, name: str, event: Event) -> bool:
    """Is `name` a list of layer outputs (or inputs) in forward order when `event` runs?"""
    trace = event.where.trace
    bound = binding(model, name, event)
    if bound is None or bound.value is None:
        return False
    if any(call.order < event.order for method in _REORDERING for call in calls_on(model, name, method, trace)):
        return False
    value = bound.value
    if type(value) is cst.Call and dotted_name(value.func) in ("nnsight.save", "save") and value.args:
        value = value.args[0].value
    if type(value) is cst.ListComp:
        return _forward_comprehension(value)
    if type(value) is cst.List and not value.elements:  # `acts = []`, then `acts.append(layer.output)`
        appends = [call for call in calls_on(model, name, "append", trace) if bound.order < call.order < event.order]
        return bool(appends) and all(_appends_layer_in_order(model, call) for call in appends)
    return False


def _forward_comprehension(node: cst.ListComp) -> bool:
    """`[layer.output for layer in model.transformer.h]` or `[model.….h[i].output for i in range(n)]`."""
    clause = node.for_in
    if clause.inner_for_in is not None or clause.ifs or type(clause.target) is not cst.Name or not reads_access(node.elt):
        return False
    target = clause.target.value
    if _ascending_range(clause.iter):
        return _indexes_with(node.elt, target)
    root = root_name(node.elt)
    return root is not None and root.value == target and type(clause.iter) is cst.Attribute


def _appends_layer_in_order(model: FileModel, call: Event) -> bool:
    """`captured.append(layer.output)` in `for layer in model.transformer.h:`."""
    if not call.node.args or not reads_access(call.node.args[0].value):
        return False
    root = root_name(call.node.args[0].value)
    loop = binding(model, root.value, call) if root is not None else None
    return loop is not None and type(getattr(loop.statement, "iter", None)) is cst.Attribute


def _ascending_range(node: Optional[cst.CSTNode]) -> bool:
    """`range(n)` / `range(a, b)` / `range(len(xs))`: indices walked upwards."""
    if type(node) is not cst.Call or dotted_name(node.func) != "range" or not 1 <= len(node.args) <= 2:
        return False
    return all(arg.keyword is None and not arg.star for arg in node.args)


def _indexes_with(node: cst.CSTNode, name: str) -> bool:
    """Does the chain index a module list with `name` (`model.transformer.h[i].output`)?"""
    while type(node) in (cst.Attribute, cst.Subscript):
        if type(node) is cst.Subscript and len(node.slice) == 1:
            index = node.slice[0].slice
            if isinstance(index, cst.Index) and type(index.value) is cst.Name and index.value.value == name:
                return True
        node = node.value
    return False
