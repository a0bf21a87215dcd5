"""# NNL005: a backward where the forward builds no graph (generate, no_grad, inference_mode)

## Symptom
A backward inside `model.generate(...)`, or in a trace opened under `torch.no_grad()` /
`torch.inference_mode()`, fails at once:

    NotImplementedError: This tensor does not require grad, so a backward session cannot produce
    gradients: nothing the block reads can ever receive one. ...

for `with loss.backward():`, or torch's `RuntimeError: element 0 of tensors does not require grad
and does not have a grad_fn` for a plain `loss.backward()` or `torch.autograd.grad(...)`.

## Cause
Hugging Face's `generate` runs the whole forward under `torch.no_grad()`; a trace opened inside
`torch.no_grad()`, `torch.inference_mode()` or `torch.set_grad_enabled(False)` (also as a decorator
of the function holding it) runs its forward without autograd too. No graph is built, so nothing
can be differentiated. `torch.enable_grad()` inside a generate body does not help: it does not
reach the forward generate runs.

## Wrong code
```python
with model.generate("The Eiffel Tower is in", max_new_tokens=3):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():  # NNL005
        grad = hidden.grad.save()
```

## Right code
```python
with model.generate("The Eiffel Tower is in", max_new_tokens=3):
    tokens = model.generator.output.save()
with model.trace(tokens):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():
        grad = hidden.grad.save()
```
A trace opened inside `torch.enable_grad()` (or outside the `no_grad` block) builds its graph.

## Fix safety
No automatic fix: where the gradients should come from is the author's choice.

## How to silence
Put `# noqa: NNL005` on the reported line (the `backward` / `grad` call), or `--ignore NNL005`. A
grad mode computed at run time (`torch.set_grad_enabled(flag)`) is not reported.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL005"
NAME = "backward-without-grad"
SUMMARY = messages.NNL005_TITLE
DEFAULT = True
SINCE = BEFORE = None  # generate and no_grad have never built a graph
FIX = None
RAISES = ("NotImplementedError", "RuntimeError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for trace in model.traces:
        why = "generate" if trace.kind == "generate" else trace.grad_disabled
        if not why:
            continue
        for call in trace.backwards:
            if id(call.name) not in reported:
                reported.add(id(call.name))
                yield context.diagnostic(CODE, call.name, messages.nnl005(call.kind.value, why))
