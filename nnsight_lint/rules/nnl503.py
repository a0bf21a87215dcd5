"""# NNL503: a wrapper over a torch model built in the program, without `tokenizer=`

## Symptom
    Exception: Impossible to guess which tokenizer to use. Please provide a PreTrainedTokenizer
    class or a path/identifier to a pretrained tokenizer.

## Cause
`LanguageModel("openai-community/gpt2")` loads the tokenizer from the same checkpoint as the
model. `LanguageModel(net)` over a torch model built from a config class (`GPT2LMHeadModel(config)`,
`AutoModelForCausalLM.from_config(config)`) has no checkpoint to take one from: the wrapper
cannot make one, and on nnsight 0.8.1 the construction itself fails.

## Wrong code
```python
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

net = GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=64, n_head=2))
model = LanguageModel(net)  # NNL503
with model.trace("The Eiffel Tower is in"):
    logits = model.lm_head.output.save()
```

## Right code
```python
from nnsight import LanguageModel
from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel

net = GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=64, n_head=2))
model = LanguageModel(net, tokenizer=AutoTokenizer.from_pretrained("openai-community/gpt2"))
with model.trace("The Eiffel Tower is in"):
    logits = model.lm_head.output.save()
```
Not reported: a load by id or path, a torch model from `from_pretrained(...)` (its config names
the checkpoint), `NNsight(net)` (which takes tensors, not text), `tokenizer=` or `**kwargs` given,
and a torch model the source does not show being built from a config class.

## Family
NNL5xx, model lifecycle and inputs: see NNL502.

## Versions
Checked on nnsight 0.8.1, where the construction fails; older versions fail at the first text input.

## Fix safety
No automatic fix: which tokenizer fits the model is the author's choice.

## How to silence
Put `# noqa: NNL503` on the reported line (the construction), or `--ignore NNL503`.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL503"
NAME = "wrapper-without-tokenizer"
SUMMARY = messages.NNL503_TITLE
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ("Exception",)

_TEXT_WRAPPERS = frozenset({"LanguageModel"})


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    if "LanguageModel" not in "".join(context.lines):  # the cheap test before resolving models
        return
    for ref in model.models:
        if ref.wrapper not in _TEXT_WRAPPERS or ref.file is not None or ref.loader not in ("init", "from_config"):
            continue
        if ref.ref is not None or "tokenizer" in ref.keywords or any(arg.star for arg in ref.call.args):
            continue
        if context.deliberate(CODE, ref.call):
            continue
        yield context.diagnostic(CODE, ref.call, messages.nnl503(ref.wrapper, ref.model_class or "torch model"))
