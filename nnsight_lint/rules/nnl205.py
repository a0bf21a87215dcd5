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
        clean = model.transformer.h[0].output[:, -1].save()  # the last token: prompts differ in length
    with model.trace("The Eiffel Tower is in"):
        model.transformer.h[0].output[:, -1] = clean
```
A trace of a different model inside (a probe run on a hidden state) is fine.

## Fix safety
No automatic fix.

## How to silence
Put `# noqa: NNL205` on the reported line (the inner `.trace(` / `.generate(` call), or
`--ignore NNL205`.
"""
from __future__ import annotations

from typing import Iterator, List, Optional

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel, Trace
from nnsight_lint.analysis.scope import dotted_name, function_params
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
        mine = resolve(_passed_model(trace), aliases)
        if mine is None:
            continue
        outer = trace.parent
        while outer is not None and resolve(_passed_model(outer), aliases) != mine:
            outer = outer.parent
        if outer is not None:
            reported.add(id(trace.call))
            line = context.span(outer.call)[0].line
            yield context.diagnostic(CODE, trace.call, messages.nnl205(mine, line))


def _passed_model(trace: Trace) -> Optional[str]:
    """The traced model as the caller names it: a helper's parameter (`def run(model, x)`, walked at
    its call site) stands for the argument passed to it; None when that is not a plain name."""
    name = trace.model
    for call in reversed(trace.where.helper):
        root, _, rest = name.partition(".")
        function = trace.where.scope.function(dotted_name(call.func) or "") if type(call.func) is cst.Name else None
        params = [p.name.value for p in function_params(function)] if function is not None else []
        if root not in params:
            return name
        argument = _argument(call, params, root)
        passed = dotted_name(argument) if argument is not None else None
        if passed is None:
            return None
        name = f"{passed}.{rest}" if rest else passed
    return name


def _argument(call: cst.Call, params: List[str], name: str) -> Optional[cst.BaseExpression]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    index = params.index(name)
    return positional[index] if index < len(positional) else None
