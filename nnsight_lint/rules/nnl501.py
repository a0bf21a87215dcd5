"""# NNL501: a lazily loaded model used as a torch module before it is dispatched

## Symptom
Code between `model = LanguageModel("openai-community/gpt2")` and the first trace fails:

    NotImplementedError: Cannot copy out of meta tensor; no data!

(at the trace, after `ids.to(model.device)`, or at `model.to("cuda")`), or

    RuntimeError: Tensor.item() cannot be called on meta tensors

## Cause
`LanguageModel(id)` (and `LanguageModel(path)`) builds the torch model on the meta device, with
no weights, and loads them only when the first trace or generation runs it (or at
`dispatch=True` / `model.dispatch()`). Until then `model.device` is `meta`, every parameter is
a meta tensor, and moving the model has nothing to copy.

## Wrong code
```python
from nnsight import LanguageModel
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("openai-community/gpt2")
model = LanguageModel("openai-community/gpt2", tokenizer=tokenizer)
ids = tokenizer("The Eiffel Tower is in", return_tensors="pt").input_ids.to(model.device)  # NNL501
with model.trace(ids):
    logits = model.lm_head.output.save()
```

## Right code
```python
from nnsight import LanguageModel
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("openai-community/gpt2")
model = LanguageModel("openai-community/gpt2", tokenizer=tokenizer, dispatch=True)
ids = tokenizer("The Eiffel Tower is in", return_tensors="pt").input_ids.to(model.device)
with model.trace(ids):
    logits = model.lm_head.output.save()
```
Not reported: a model constructed with `dispatch=` (any value) or `**kwargs`, one built over a
torch model (`LanguageModel(net)`), code after a trace or generation of the model or after
`model.dispatch()` / `model.dispatch_model()`, code under `if model.dispatched:`, code in
functions (when they run is not known), and reading shapes, configs or parameter counts (meta
tensors have those).

## Family
NNL5xx, model lifecycle and inputs: see NNL502.

## Versions
Checked on nnsight 0.8.1 (`dispatch()`); applies to every version (`dispatch_model()` before 0.5).

## Fix safety
No automatic fix: `dispatch=True` loads the weights at construction, which the author may have
deferred on purpose.

## How to silence
Put `# noqa: NNL501` on the reported line, or `--ignore NNL501`.
"""
from __future__ import annotations

from typing import Iterator, Optional, Tuple

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.dispatch import construction_of, dispatched_before, guarded, loads_lazily, root_name
from nnsight_lint.analysis.model import Event, EventKind
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL501"
NAME = "model-used-before-dispatch"
SUMMARY = messages.NNL501_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("NotImplementedError", "RuntimeError")
SURFACES = "next-trace"  # an input moved to the meta device fails in the trace that takes it


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    for event in model.events:
        if event.kind is not EventKind.CALL or type(event.base) is not cst.Attribute:
            continue
        where = event.where
        if where.trace is not None or where.session is not None or where.helper or where.function is not None:
            continue
        use = _use(event)
        if use is None:
            continue
        name, why = use
        ref = construction_of(model, name, event.order)
        if ref is None or not loads_lazily(ref) or dispatched_before(model, name, event.order):
            continue
        if guarded(model, event) or context.deliberate(CODE, event.node):
            continue
        text = f".to({name}.device)" if why == "to-device" else model.module.code_for_node(event.node)
        yield context.diagnostic(CODE, event.node, messages.nnl501(text, name, why))


def _use(event: Event) -> Optional[Tuple[str, str]]:
    """(the model's name, what kind of use) for a call that needs the model's real weights."""
    method = event.base.attr.value
    receiver = event.base.value
    if method == "to":
        for arg in event.node.args:
            value = arg.value
            if type(value) is cst.Attribute and value.attr.value == "device" and type(value.value) is cst.Name:
                return value.value.value, "to-device"
        if type(receiver) is cst.Name:
            return receiver.value, "move"
        return None
    if method == "cpu" and type(receiver) is cst.Name:
        return receiver.value, "move"
    if method == "item" and type(receiver) is not cst.Name:
        name = root_name(receiver)
        return (name, "item") if name is not None and dotted_name(receiver) != name else None
    return None
