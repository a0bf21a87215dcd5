"""# NNL401: a module path the model does not have

## What it does
Reports a module path, inside a trace, that the model the trace runs on does not have:
`model.model.layers` on a GPT-2 (it calls them `transformer.h`), `self_attn` on GPT-2 (`attn`),
`mlp.down_proj` where the MLP has `c_proj`, a typo (`transformer.hh`), also through a loop over a
module list (`for layer in model.model.layers:`) and `model.get("transformer.h.0.mlp.output")`.
The message lists the children the model does have and the closest real path.

The model must be known: its construction resolved (`LanguageModel("openai-community/gpt2")`,
`LanguageModel(GPT2LMHeadModel(GPT2Config(...)))`, through names, `self.model`, fixtures and project
helpers) to a config (the `[tool.nnsight-lint.models]` setting, a local path, the Hugging Face
cache, the bundled table) whose architecture has a generated schema. Anything else is not
reported. Parameters, buffers and other attributes of a module (`.weight`, `.config`), nnsight's
Envoy API (`.output`, `.next`, `.source`, `.skip`, `.tokenizer`, ...) and torch's `nn.Module`
API are not module paths and are fine; a path through a `rename=` alias is walked through it.
A path in either arm of an `if` that tests a version (`if transformers_version < ...:`) is a
path of the releases that arm runs on, and is not judged.

## Why is this bad?
nnsight resolves a path only when the trace runs: `AttributeError: 'Envoy' object (nor its module)
has attribute 'layers'`, and it never lists what the module does have. Inside a trace the error
surfaces at the end of the `with` block, after the model ran up to that point; with
`remote=True`, after the queue.

## Example
```python
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
with model.trace("The Eiffel Tower is in"):
    hidden = model.model.layers[5].output.save()  # NNL401: GPT-2 calls it `transformer.h[i]`
```

## Use instead
```python
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[5].output.save()
```

## Fix safety
No automatic fix: the closest path is a guess about what was meant.
"""
from __future__ import annotations

from typing import Iterator

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.model import EventKind
from nnsight_lint.analysis.literals import literal
from nnsight_lint.analysis.paths import ACCESS_KIND
from nnsight_lint.analysis.schemas import closest, display, known_model, module_events, walk
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL401"
NAME = "unknown-module"
SUMMARY = messages.NNL401_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("AttributeError", "NNsightException")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    from nnsight_lint.knowledge.envoy import attribute_names

    reported = set()
    for node, trace, known, path in _paths(model, context):
        walked = walk(known, path)
        if walked.module is not None or walked.reason != "child":
            continue
        missing = path[walked.at]
        if isinstance(missing, str) and (missing in attribute_names() or missing in walked.parent.attributes):
            continue  # the Envoy API, a parameter or attribute: not a module path
        if missing == "_module":
            continue  # the envoy's own torch module: a module path goes on inside it (NNL506 is about it)
        if model.in_version_branch(node):
            continue  # `if transformers_version < "5": model.embed_out`: a path of the releases it runs on
        key = (id(trace), tuple(path[: walked.at + 1]))
        if key in reported:
            continue
        reported.add(key)
        written = context.module.code_for_node(node)
        resolved = display(path)
        resolved = None if resolved in written or type(node) is cst.Call else resolved  # through a name
        children, suggestion = closest(known, walked, path)
        yield context.diagnostic(CODE, node, messages.nnl401(
            written, resolved, known.name, display(walked.path), display([missing]), children, suggestion,
            transformers=known.transformers_words()))


def _paths(model: FileModel, context: RuleContext):
    """(node, trace, known model, module path) for each module access and `.grad` in a trace of a
    known model, and each `<model>.get("a.b.0.c.output")`."""
    for event, known, path in module_events(model, context):
        yield event.node, event.where.trace, known, path
    for event in model.events:
        trace = event.where.trace
        if event.kind is not EventKind.CALL or trace is None or type(event.base) is not cst.Attribute:
            continue
        call = event.node
        if event.base.attr.value != "get" or dotted_name(event.base.value) != trace.model or not call.args:
            continue
        text = literal(call.args[0].value)
        known = known_model(trace, context) if isinstance(text, str) else None
        if known is None:
            continue
        parts = [p for p in text.split(".") if p]
        while parts and parts[-1] in ACCESS_KIND:
            parts.pop()
        yield call, trace, known, tuple(int(p) if p.lstrip("-").isdigit() else p for p in parts)
