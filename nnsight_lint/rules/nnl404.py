"""# NNL404: a module's tuple output used as if it were a tensor

## What it does
Reports tensor use of the `.output` of a module that returns a tuple for the transformers the
project targets: tensor indexing (`attn.output[:, -1]`, `[0, -1, :]`), a slice assignment
(`attn.output[:, 0] = 0`), a tensor attribute or method (`.shape`, `.norm()`), arithmetic
(`attn.output * 2`), or a `torch.*` call on it. Attention modules return a tuple
`(attn_output, attn_weights)` in every architecture and release; decoder blocks returned tuples
before transformers 5 (GPT-2 before 5.3, Llama before 4.54, ...) and still do in GPT-Neo and
Falcon. Also through a name bound to the output or to its `.save()`.

The model must be known (see NNL401). Item assignment into a tuple (`attn.output[0] = t`) is
NNL207's, which needs no model: NNL404 reports it only for modules NNL207 does not look at
(a tuple-returning decoder block). Integer indexing (`attn.output[0]`), a slice read
(`h.output[1:]`, the other items), unpacking and joining tuples (`(t,) + h.output[1:]`) are right.
Code in either arm of an `if` that tests a version (see NNL403) is not judged.

## Why is this bad?
`attn.output[:, -1, :]` raises `TypeError: tuple indices must be integers or slices, not tuple`;
`attn.output.shape` raises AttributeError; `attn.output * 2` is silently a 4-tuple. Inside a
trace the error surfaces at the end of the `with` block, after the model ran up to that point.

## Example
```python
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
with model.trace("The Eiffel Tower is in"):
    last = model.transformer.h[0].attn.output[:, -1, :].save()  # NNL404
```

## Use instead
```python
with model.trace("The Eiffel Tower is in"):
    last = model.transformer.h[0].attn.output[0][:, -1, :].save()
```

## Fix safety
No automatic fix: which item of the tuple was meant is not certain.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.schemas import module_events, walk
from nnsight_lint.analysis.uses import uses
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext
from nnsight_lint.rules.nnl207 import ATTENTION

CODE = "NNL404"
NAME = "tuple-output-used-as-tensor"
SUMMARY = messages.NNL404_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("TypeError", "AttributeError", "NNsightException")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for event, known, path in module_events(model, context):
        if event.access not in ("output", "outputs") or event.kind.value != "access":
            continue
        walked = walk(known, path)
        if walked.module is None or walked.module.output is None or walked.module.output.kind != "tuple":
            continue
        for use in uses(model).of(event):
            kind = use.kind
            if kind == "item":
                if not use.store or (use.via is None and path and path[-1] in ATTENTION):
                    continue  # reading an item is right; writing one into attention is NNL207's
                kind = "item-store"
            elif kind == "unpack" or (kind == "slice" and not use.store):
                continue  # `output[1:]` is the tuple's other items
            elif kind in ("tensor-index", "slice") and use.store:
                kind = "tensor-index-store"
            if id(use.node) in reported or model.in_version_branch(event.node) or model.in_version_branch(use.node):
                continue  # an `if` on the transformers version: each arm is right where it runs
            reported.add(id(use.node))
            access = context.module.code_for_node(event.node)
            said = messages.NNL404_USES[kind].format(name=use.name)
            yield context.diagnostic(CODE, use.node, messages.nnl404(
                use.via or access, known.name, said, known.transformers_words(), len(walked.module.output.items) or 2))
