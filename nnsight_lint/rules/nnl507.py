"""# NNL507: a graph proxy used as a plain Python value inside a trace (nnsight < 0.5)

## Symptom
On nnsight 0.3 or 0.4, a trace fails while it is being built, on a line that reads fine:

    TypeError: __index__ returned non-int (type InterventionProxy)
    AttributeError: 'NoneType' object has no attribute 'end_lineno'
    AttributeError: type object '_empty' has no attribute '__bool__'

or, on 0.3, a `for` loop over a module's output never ends.

## Cause
Before 0.5 a trace builds a graph: a module's `.output`/`.input`, and everything computed from it
in the trace (`.shape`, `[0]`, `.sum()`, `.item()`, `.tolist()`, `x > 0`), is a proxy that has no
value until the trace runs. Python code that needs the value now fails. Measured on 0.3.7 and
0.4.11 (`rules/NNL507/`):

| asking the proxy for | 0.3 | 0.4 |
|---|---|---|
| `len()`, `int()`, `float()`, `range()` | TypeError | TypeError |
| `bool()`, `while`, `assert`, `a if p else b`, `and`/`or`, `not`, `in` | AttributeError | AttributeError |
| `if p:` / `elif p:` | AttributeError | fine: a graph condition |
| `for x in p:` | never ends | fine: a graph loop |
| a comprehension over it | never ends | AttributeError |
| unpacking (`a, b = p`) | ValueError | AttributeError |

In a session's body a value saved in one of its traces is a proxy too, until the session ends.
`.tolist()` and `.item()` themselves are fine (they give proxies); using what they give as above is
not. Not reported: values after the trace or session (saved values are real there), envoys
(`len(model.transformer.h)` is the number of layers), and a list of proxies.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[0].output[0]
    n_tokens = len(hidden[0])  # NNL507 (target 0.4)
    last = hidden[:, n_tokens - 1].save()
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    last = model.transformer.h[0].output[0][:, -1].save()
```

## Versions
Applies to targets before 0.5 (set `target-version`); from 0.5 on a value in a trace is a real
tensor and all of the above works.

## Fix safety
No automatic fix: what the value was meant for is the author's call.

## How to silence
Put `# noqa: NNL507` on the reported line, or `--ignore NNL507`.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.proxies import value_uses
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL507"
NAME = "proxy-as-python-value"
SUMMARY = messages.NNL507_TITLE
DEFAULT = True
SINCE = None
BEFORE = (0, 5)
FIX = None
RAISES = ("TypeError", "AttributeError", "ValueError", "IndexError")

_FINE_ON_0_4 = frozenset({"if", "for"})  # 0.4 makes them a graph condition / loop
_TRUTH = frozenset({"and/or", "not"})


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    release = (0, 3) if context.target_version < (0, 4) else (0, 4)
    for use in value_uses(model):
        if release == (0, 4) and use.form in _FINE_ON_0_4:
            continue
        if use.in_if and use.form in _TRUTH:
            continue  # 0.3: the `if` itself is reported; 0.4: the `if` asks, as a graph condition
        if context.deliberate(CODE, use.node):
            continue
        code = model.module.code_for_node(use.proxy)
        yield context.diagnostic(CODE, use.node, messages.nnl507(use.form, code, release))
