"""# NNL504: a module's `.output`/`.input` read after its trace ended

## Symptom
    ValueError: Cannot access `model.lm_head.output` outside of interleaving

(`ReferenceError` on nnsight 0.4 and earlier.)

## Cause
A module's `.output` and `.input` are the values flowing through it while a trace runs the model.
Once the `with model.trace(...)` block has ended there is no model run to take them from: what
leaves a trace is only what was `.save()`d inside it. (`.save()` itself after the trace is NNL105.)

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    pass
logits = model.lm_head.output  # NNL504
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    logits = model.lm_head.output.save()
```
Not reported: reads inside a trace, a session, or a `with model.edit()` / `scan()` block; reads in
a function body (a helper runs where it is called, and the linter does not parse helpers no trace
uses); an object that is not the traced model (or a submodule named from it); a read before the
file's first trace of that model.

## Family
NNL5xx, model lifecycle and inputs: see NNL502.

## Versions
Checked on nnsight 0.8.1; applies from 0.5.

## Fix safety
No automatic fix: the read belongs inside the trace, with a `.save()`, and where is the author's call.

## How to silence
Put `# noqa: NNL504` on the reported line (the `.output`/`.input`), or `--ignore NNL504`.
"""
from __future__ import annotations

from typing import Iterator, Optional, Set

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.flow import last_binding
from nnsight_lint.analysis.model import Event, EventKind, Trace
from nnsight_lint.analysis.outside import context_blocks, outside_traces
from nnsight_lint.analysis.paths import is_access
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL504"
NAME = "module-value-after-trace"
SUMMARY = messages.NNL504_TITLE
DEFAULT = True
SINCE = (0, 5)
BEFORE = None
FIX = None
RAISES = ("ValueError", "ReferenceError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    roots = {trace.model.split(".")[0]: trace for trace in model.traces if trace.model}
    if not roots:
        return
    saved = _saved_chains(model)
    blocks = None
    for event in model.events:
        if event.kind is not EventKind.ACCESS or event.store or id(event.node) in saved:
            continue
        if event.where.trace is not None or event.where.function is not None or not outside_traces(model, event):
            continue
        trace = _ended_trace(model, event, roots)
        if trace is None:
            continue
        if blocks is None:
            blocks = context_blocks(model.module, context.span)
        start = context.span(event.node)[0]
        if any(first <= start < last for first, last in blocks) or context.deliberate(CODE, event.node):
            continue
        line = context.span(trace.node)[0].line
        yield context.diagnostic(CODE, event.node, messages.nnl504(model.module.code_for_node(event.node), line))


def _root(node: cst.CSTNode) -> Optional[str]:
    while type(node) in (cst.Attribute, cst.Subscript):
        node = node.value
    return node.value if type(node) is cst.Name else None


def _ended_trace(model: FileModel, event: Event, roots) -> Optional[Trace]:
    """The last trace of the model the access's chain starts at that ended before the access."""
    name = _root(event.base)
    if name is None or is_access(event.base):
        return None
    if name not in roots:  # `layer = model.transformer.h[0]` before: the chain's own root
        binding = last_binding(model, name, event.order)
        value = binding.value if binding is not None else None
        if value is None or is_access(value) or type(value) not in (cst.Attribute, cst.Subscript):
            return None
        name = _root(value)
        if name not in roots:
            return None
    ended = [t for t in model.traces if t.model and t.model.split(".")[0] == name and t.end < event.order]
    return ended[-1] if ended else None


def _saved_chains(model: FileModel) -> Set[int]:
    """Nodes inside the object of a `.save()` / `nnsight.save(...)`: NNL105 reports those."""
    found: Set[int] = set()
    for event in model.events:
        if event.kind is EventKind.SAVE and event.base is not None:
            node = event.base
            while type(node) in (cst.Attribute, cst.Subscript):
                found.add(id(node))
                node = node.value
    return found
