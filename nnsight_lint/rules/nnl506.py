"""# NNL506: `.output`/`.input` of a torch module instead of its envoy

## Symptom
    AttributeError: 'GPT2MLP' object has no attribute 'output'

## Cause
nnsight wraps each torch module of the model in an envoy, and only envoys have `.output`,
`.input` and the other intervention attributes. `model._module` is the torch model itself, and
an envoy hands some torch methods straight through to its module: `model.transformer.h.children()`
and `.named_children()` yield torch modules, as do `.modules()` / `.named_modules()` of
`model._module`. Reading `.output` of one of those inside a trace fails.

## Wrong code
```python
outs = []
with model.trace("The Eiffel Tower is in"):
    for name, module in model._module.named_modules():
        if name.endswith("mlp"):
            outs.append(module.output.save())  # NNL506
```

## Right code
```python
outs = []
with model.trace("The Eiffel Tower is in"):
    for name, module in model.named_modules():  # envoys
        if name.endswith("mlp"):
            outs.append(module.output.save())
```
Not reported: the envoys of `model.modules()` / `model.named_modules()`, indexing
(`model.transformer.h[0]`), iterating an envoy list (`for layer in model.transformer.h`), and torch
modules used outside traces (hooks, parameter counts).

## Family
NNL5xx, model lifecycle and inputs: see NNL502.

## Versions
Checked on nnsight 0.8.1 (`._module`, envoy `modules()` / `named_modules()`); applies from 0.5.

## Fix safety
No automatic fix: which envoy the code means is the author's call.

## How to silence
Put `# noqa: NNL506` on the reported line (the `.output`/`.input`), or `--ignore NNL506`.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.model import EventKind
from nnsight_lint.analysis.torch_modules import torch_module_reason
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL506"
NAME = "torch-module-not-envoy"
SUMMARY = messages.NNL506_TITLE
DEFAULT = True
SINCE = (0, 5)
BEFORE = None
FIX = None
RAISES = ("AttributeError",)


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    for trace in model.traces:
        for event in model.trace_events(trace):
            if event.kind is not EventKind.ACCESS:
                continue
            reason = torch_module_reason(model, event)
            if reason is None or context.deliberate(CODE, event.node):
                continue
            yield context.diagnostic(CODE, event.node, messages.nnl506(model.module.code_for_node(event.node), reason))
