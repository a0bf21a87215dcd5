"""# NNL205: a trace of the same model opened inside its running trace

## Symptom
    ValueError: cyclic parent chain

pointing at the OUTER `with`, or an unrelated-looking `AttributeError` (`'str' object has no
attribute 'shape'` for a nested `generate`, `'NoneType' object has no attribute 'event'`).

## Cause
A trace's body runs during its model's forward. Opening another trace (or `generate`) of the same
model there asks the model to run again while it is running, inside its own hooks.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    corrupted = model.transformer.h[0].output.save()
    with model.trace("The Colosseum is in"):  # NNL205
        clean = model.transformer.h[0].output.save()
```

## Right code
```python
with model.session():
    with model.trace("The Colosseum is in"):
        clean = model.transformer.h[0].output.save()
    with model.trace("The Eiffel Tower is in"):
        model.transformer.h[0].output[:] = clean
```
A trace of a different model inside (a probe run on a hidden state) is fine.

## Fix safety
No automatic fix.

## How to silence
Put `# noqa: NNL205` on the reported line (the inner `.trace(` / `.generate(` call), or
`--ignore NNL205`.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.shape import model_aliases, resolve
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL205"
NAME = "nested-trace-same-model"
SUMMARY = messages.NNL205_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("ValueError", "AttributeError", "NNsightException")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    aliases = None
    reported = set()
    for trace in model.traces:
        if trace.parent is None or trace.model is None or id(trace.call) in reported:
            continue
        if aliases is None:
            aliases = model_aliases(model)
        mine = resolve(trace.model, aliases)
        outer = trace.parent
        while outer is not None and resolve(outer.model, aliases) != mine:
            outer = outer.parent
        if outer is not None:
            reported.add(id(trace.call))
            line = context.span(outer.call)[0].line
            yield context.diagnostic(CODE, trace.call, messages.nnl205(trace.model, line))
