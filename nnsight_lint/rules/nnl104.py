"""# NNL104: a saved activation is edited in place later in the trace, and the saved value shows it

## Symptom
No error. A value saved before an ablation or steering edit shows the edit: the "clean"
activation is zeros, or already steered.

## Cause
`.save()` keeps a reference to the tensor, not a copy. A module's output, a slice of it, or a view
(`.detach()`, `.view(...)`, `.transpose(...)`, ...) shares its storage, so a later in-place edit of
that output in the same invoke (`output[:] = 0`, `out *= 0`, `.zero_()`, `.add_(v)`, also through
another name) changes what was saved.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    before = model.transformer.h[0].output.save()  # NNL104
    model.transformer.h[0].output[:] = 0
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    before = model.transformer.h[0].output.clone().save()
    model.transformer.h[0].output[:] = 0
```
Replacing the output (`model.transformer.h[0].output = torch.zeros_like(...)`) leaves the saved
tensor alone, and so does saving after the edit.

## Fix safety
The fix turns `.save()` into `.clone().save()`. It is unsafe: it costs memory and changes what is
saved, and a test may save the reference on purpose to check that the edit took effect.

## How to silence
This rule is opt-in (`--select NNL104`): saving a reference and then checking the edit through it
is also a deliberate pattern, and the two cannot be told apart from the source. Put
`# noqa: NNL104` on the reported line. `.cpu()`, `.float()`, `.to(...)` and `.reshape(...)` are
taken for copies (they are on a GPU, or when the dtype changes), so their saves are not reported.
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.flow import trace_events
from nnsight_lint.analysis.model import Event, EventKind
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix
from nnsight_lint.rules.context import RuleContext

CODE = "NNL104"
NAME = "inplace-alias-save"
SUMMARY = messages.NNL104_TITLE
DEFAULT = False
SINCE = BEFORE = None  # torch's aliasing, whatever the nnsight
FIX = "unsafe"
RAISES = ()

_VIEWS = frozenset({"detach", "view", "view_as", "transpose", "permute", "unsqueeze", "squeeze", "narrow",
                    "select", "expand", "expand_as", "t", "swapaxes", "movedim", "diagonal", "unflatten"})
_NOT_IN_PLACE = frozenset({"requires_grad_", "retain_grad_", "share_memory_"})
Storage = Tuple[Tuple[object, ...], str, str]  # module path, "output"/"input", source of the module


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    for trace in model.traces:
        events = trace_events(model, trace)
        if not any(e.kind is EventKind.SAVE for e in events):
            continue
        accesses = {id(e.node): e for e in events if e.kind is EventKind.ACCESS}
        aliases: Dict[Tuple[int, str], Storage] = {}
        saves: List[Tuple[Storage, Event]] = []
        edits: List[Tuple[Storage, Event]] = []
        for event in events:
            resolve = lambda node: _storage(node, accesses, aliases, event, context)  # noqa: E731
            if event.kind is EventKind.SAVE and event.base is not None:
                storage = resolve(event.base)
                if storage is not None:
                    saves.append((storage, event))
            elif event.kind is EventKind.ACCESS and event.store in ("item", "nested"):
                storage = resolve(event.node)
                if storage is not None:
                    edits.append((storage, event))
            elif event.kind is EventKind.CALL and isinstance(event.node.func, cst.Attribute):
                method = event.node.func.attr.value
                if method.endswith("_") and not method.startswith("_") and method not in _NOT_IN_PLACE:
                    storage = resolve(event.node.func.value)
                    if storage is not None:
                        edits.append((storage, event))
            elif event.kind is EventKind.READ and event.store in ("item", "nested"):
                storage = resolve(event.node)  # `alias[...] = v`
                if storage is not None:
                    edits.append((storage, event))
            elif event.kind is EventKind.BIND:
                key = (id(event.where.scope), event.name)
                if isinstance(event.statement, cst.AugAssign):  # `alias += v`: in place
                    storage = aliases.get(key)
                    if storage is not None:
                        edits.append((storage, event))
                    continue
                storage = resolve(event.value) if event.value is not None else None
                if storage is not None:
                    aliases[key] = storage
                else:
                    aliases.pop(key, None)
        for storage, save in saves:
            later = [e for s, e in edits if s == storage and e.order > save.order and e.where.invoke == save.where.invoke]
            if later:
                line = context.span(later[0].node)[0].line
                yield context.diagnostic(CODE, save.node, messages.nnl104(line), _clone_fix(save, context))


def _storage(node, accesses, aliases, at: Event, context: RuleContext) -> Optional[Storage]:
    """The module output (or input) whose memory `node` shares, when it certainly shares it."""
    kind = type(node)
    if kind is cst.Attribute:
        access = accesses.get(id(node))
        if access is not None:
            if access.path is None:
                return None
            source = context.module.code_for_node(access.base) if "?" in access.path else ""
            return access.path, "input" if access.access in ("input", "inputs") else "output", source
        if node.attr.value in ("T", "mT", "data"):
            return _storage(node.value, accesses, aliases, at, context)
        return None
    if kind is cst.Subscript:
        if all(_basic_index(element.slice) for element in node.slice):
            return _storage(node.value, accesses, aliases, at, context)
        return None
    if kind is cst.Call and isinstance(node.func, cst.Attribute) and node.func.attr.value in _VIEWS:
        return _storage(node.func.value, accesses, aliases, at, context)
    if kind is cst.Name:
        return aliases.get((id(at.where.scope), node.value))
    return None


def _basic_index(index) -> bool:
    """Basic indexing (a view): slices, integer literals, `None`, `...`."""
    if isinstance(index, cst.Slice):
        return True
    value = index.value if isinstance(index, cst.Index) else None
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    return isinstance(value, (cst.Integer, cst.Ellipsis)) or (isinstance(value, cst.Name) and value.value == "None")


def _clone_fix(save: Event, context: RuleContext) -> Optional[Fix]:
    func = save.node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "save" and not save.node.args):
        return None
    end = context.span(func.value)[1]
    return Fix((Edit(end, end, ".clone()"),), safe=False)
