"""# NNL207: item assignment into an attention module's tuple output

## Symptom
    TypeError: 'tuple' object does not support item assignment

## Cause
Hugging Face attention modules return a tuple `(attn_output, attn_weights)`: GPT-2's `attn`,
Llama / Mistral / Qwen / Gemma / Phi / OLMo / Mixtral / OPT's `self_attn`, GPT-NeoX's `attention`,
Bloom / Falcon's `self_attention` (checked on transformers 5.24, and so in transformers 4).
`attn.output[0] = t` tries to replace an element of that tuple.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    model.transformer.h[0].attn.output[0] = 0  # NNL207
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    model.transformer.h[0].attn.output[0][:] = 0  # in place, in the tensor
    # or: attn = model.transformer.h[0].attn.output
    #     model.transformer.h[0].attn.output = (attn[0] * 0, *attn[1:])
```

## What is decided
Only modules whose name is an attention module's (`attn`, `self_attn`, `attention`,
`self_attention`). Decoder blocks are not reported: what they return depends on the architecture
and the transformers version (GPT-2's `h[i]` returns a tensor in transformers 5, so
`h[0].output[0] = t` writes batch row 0; Bloom, Falcon and GPT-Neo blocks return tuples).
Projections inside attention (`attn.c_attn`, `self_attn.q_proj`) return tensors. A file that
uses vLLM (`nnsight.modeling.vllm`) or TransformerLens is not looked at: their attention modules
return a tensor.

## Fix safety
No automatic fix: an in-place write broadcasts differently from a replacement.

## How to silence
Put `# noqa: NNL207` on the reported line, or `--ignore NNL207`.
"""
from __future__ import annotations

import re
from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.model import EventKind
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL207"
NAME = "tuple-output-item-assign"
SUMMARY = messages.NNL207_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("TypeError", "NNsightException")

ATTENTION = frozenset({"attn", "self_attn", "attention", "self_attention"})


# Attention modules of other implementations return a tensor (vLLM's, TransformerLens's).
_OTHER_IMPLEMENTATIONS = re.compile(r"^\s*(?:from|import)\s+(?:vllm|transformer_lens)\b|\bnnsight\.modeling\.vllm\b")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    found = {
        id(event.node): event.node
        for event in model.events
        if event.kind is EventKind.ACCESS
        and event.store == "item"
        and event.access in ("output", "outputs")
        and event.rooted
        and event.path
        and event.path[-1] in ATTENTION
    }
    if not found or any(_OTHER_IMPLEMENTATIONS.search(line) for line in context.lines):
        return
    for node in found.values():
        yield context.diagnostic(CODE, node, messages.nnl207(context.module.code_for_node(node)))
