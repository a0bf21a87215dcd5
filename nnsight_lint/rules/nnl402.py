"""# NNL402: a layer index past the model's layer count

## What it does
Reports an index into a module list (the decoder layers `transformer.h`, `model.layers`, ...)
inside a trace that is past its end for the model the trace runs on, counted from either end:
a literal (`h[12]` on a 12-layer GPT-2, `h[-13]`), or an index the source decides (`for i in
range(13)`, a literal list, `len(...)`, `model.config.n_layer` / `num_hidden_layers` arithmetic:
`h[model.config.n_layer]`). Slices past the end (`h[10:20]`) are legal Python and not reported.

The model must be known (see NNL401); the layer count comes from its config.

## Why is this bad?
nnsight resolves the index only when the trace runs, and says it misleadingly: `h[12]` on 12
layers raises `AttributeError: ... has attribute '12'`, and `h[-13]` says attribute `'-1'`. Inside
a trace it surfaces at the end of the `with` block, after the model ran up to that point.

## Example
```python
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")  # 12 layers
hs = []
with model.trace("The Eiffel Tower is in"):
    for i in range(13):
        hs.append(model.transformer.h[i].output.save())  # NNL402: i reaches 12
```

## Use instead
```python
hs = []
with model.trace("The Eiffel Tower is in"):
    for i in range(len(model.transformer.h)):
        hs.append(model.transformer.h[i].output.save())
```

## Fix safety
No automatic fix: which layer was meant is not known.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.indices import index_values
from nnsight_lint.analysis.schemas import display, module_events, walk
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL402"
NAME = "layer-index-out-of-range"
SUMMARY = messages.NNL402_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("AttributeError", "IndexError", "NNsightException")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for event, known, path in module_events(model, context):
        if id(event.node) in reported:
            continue
        walked = walk(known, path)
        finding = None
        if walked.reason == "index":
            finding = (walked.at, path[walked.at], "")
        elif walked.module is not None or walked.reason == "unknown" or "?" in path:
            for at, (values, how) in index_values(event, known, model, path).items():
                lists = walk(known, tuple("?" if p == "?" else p for p in path[:at]))
                length = lists.module.length if lists.module is not None else None
                if length is None:
                    continue
                wrong = [v for v in values if v >= length or v < -length]
                if wrong:
                    finding = (at, max(wrong, key=abs), f"{how} reaches {max(wrong, key=abs)}")
                    break
        if finding is None:
            continue
        at, index, how = finding
        lists = walk(known, path[:at])
        if lists.module is None or lists.module.length is None:
            continue
        reported.add(id(event.node))
        yield context.diagnostic(CODE, event.node, messages.nnl402(
            context.module.code_for_node(event.node), known.name, index, display(path[:at]),
            lists.module.length, how))
