"""# NNL007: `.grad` of a module instead of a tensor

## Symptom
Reading a gradient fails with

    AttributeError: 'Envoy' object (nor its module) has attribute 'grad'

## Cause
`model.transformer.h[1]` is a module (nnsight wraps it in an Envoy). Modules have no gradient;
tensors do: the module's output (captured in the forward) or its parameters.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    with model.lm_head.output.sum().backward():
        grad = model.transformer.h[1].grad.save()  # NNL007
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        grad = hidden.grad.save()
```
A parameter's gradient is `model.transformer.h[1].mlp.c_fc.weight.grad`.

## Fix safety
No automatic fix: the output, the input or a parameter may be meant.

## How to silence
Put `# noqa: NNL007` on the reported line, or `--ignore NNL007`. Only chains that start at the
traced model and name modules at every step are reported (Hugging Face module names); an
attribute of a wrapper library (`model.layers_output[1]`) is not taken for a module.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.gradients import names_module
from nnsight_lint.analysis.model import EventKind
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL007"
NAME = "envoy-grad"
SUMMARY = messages.NNL007_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("AttributeError",)


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for event in model.events:
        if (
            event.kind is EventKind.GRAD
            and event.store is None
            and event.rooted
            and names_module(event.path)
            and id(event.node) not in reported
        ):
            reported.add(id(event.node))
            module = context.module.code_for_node(event.base)
            yield context.diagnostic(CODE, event.node, messages.nnl007(module))
