"""# NNL403: a module's tensor output indexed as if it were a tuple

## What it does
Reports `[0]` (or any integer `[k]`) and tuple unpacking on the `.output` of a module whose output
is a tensor for the transformers the project targets, where it once was (or is commonly taken
for) a tuple: the decoder layers. From a release that depends on the architecture (Llama 4.54,
GPT-2 5.3, ...: measured per release, see `docs/models.md`; the message names it) a decoder block
returns the hidden-state TENSOR `(batch, seq, hidden)`. Also `[k]` on a decoder layer's `.input`,
its first positional argument (a tensor; `.inputs` is `(args, kwargs)`).

The model must be known (see NNL401). Not reported: the model's own output (`model.output[0]`,
`.logits`), `.inputs[0][0]`, explicit tensor indexing (`output[0, -1, :]`, `output[:, -1]`),
attention modules (they return tuples: `attn.output[0]` is right), and blocks that still return
a tuple (GPT-Neo, Falcon). The message says which transformers release it assumed when the
project's is unknown (`transformers-version`). A saved value indexed after the trace
(`h = layer.output.save()`, then `h[0]`) is left alone: a batch row is often what is meant there.
Nor is code in either arm of an `if` that tests a version (`if parse(transformers.__version__) <
parse("4.54"): h = layer.output[0]`, or a name bound to such a test): each arm is written for the
releases its test picks.

## Why is this bad?
It is silent. `h[i].output[0]` is batch row 0, shape `(seq, hidden)`: with two prompts in one
invoke you get the first only; `h[i].output[0][:, -1]` is hidden unit -1 of every token; and
`h[i].output[0][:] = 0` zeroes one row. `h[i].output[0][:, -1, :]` raises `IndexError: too many
indices for tensor of dimension 2`. Code written for transformers 4 (and nnsight's own docs) says
`output[0]` everywhere.

## Example
```python
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
with model.trace(["The Eiffel Tower is in", "The Colosseum is in"]):
    hidden = model.transformer.h[5].output[0].save()  # NNL403: batch row 0 in transformers 5.3+
```

## Use instead
```python
with model.trace(["The Eiffel Tower is in", "The Colosseum is in"]):
    hidden = model.transformer.h[5].output.save()
```
Code that must run with transformers 4 and 5 alike can test the type:
`out = h.output; hidden = out[0] if isinstance(out, tuple) else out`.

## Fix safety
No automatic fix: dropping `[0]` changes the shape every later line sees, which is right for
code written against a tuple and wrong for code already adapted to the tensor.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.schemas import module_events, walk
from nnsight_lint.analysis.uses import uses
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL403"
NAME = "tensor-output-indexed-as-tuple"
SUMMARY = messages.NNL403_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("IndexError",)


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for event, known, path in module_events(model, context):
        if event.access not in ("output", "input") or event.kind.value != "access":
            continue
        walked = walk(known, path)
        module = walked.module
        if module is None:
            continue
        value = module.output if event.access == "output" else module.input
        if value is None or value.kind != "tensor" or not value.dims or value.dims[0] != "batch":
            continue
        layer = len(path) == len(known.layers) + 1 and tuple(walked.path[:-1]) == known.layers
        since = _since(known, walked.path) if event.access == "output" else None
        if not layer and since is None:
            continue
        for use in uses(model).of(event):
            if id(use.node) in reported or use.kind not in ("item", "unpack") or use.saved:
                continue
            if model.in_version_branch(event.node) or model.in_version_branch(use.node):
                continue  # `if transformers_version < "4.54": ...output[0]`: right where it runs
            reported.add(id(use.node))
            access = context.module.code_for_node(event.node)
            written = context.module.code_for_node(use.node)
            if use.kind == "item":
                text = messages.nnl403(written, known.name, use.via or access, event.access, value.dims, use.index,
                                       known.transformers_words(), since)
            else:
                text = messages.nnl403_unpack(use.via or access, known.name, value.dims, known.transformers_words(), since)
            yield context.diagnostic(CODE, use.node, text)


def _since(known, path) -> object:
    """`Schema.output_since`, asked once per module template (the layers share one)."""
    template = tuple("?" if isinstance(p, int) else p for p in path)
    cache = known.__dict__.setdefault("_since", {}) if hasattr(known, "__dict__") else {}
    if template not in cache:
        cache[template] = known.schema.output_since(path)
    return cache[template]
