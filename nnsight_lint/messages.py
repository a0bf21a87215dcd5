"""Every text a user reads from nnsight-lint, in one place.

The linter, the docs command and the runtime hook all build their words from here, so a finding
and a run-time error about the same code say the same thing.
"""
from __future__ import annotations

DOCS_URL = "https://github.com/nnsight-lint/nnsight-lint/blob/main/docs/rules/{code}.md"

NNL000_SYNTAX = "invalid syntax: {detail}"
NNL000_NOTEBOOK = "invalid notebook: {name} {detail}"

NNL001_TITLE = "backward frees the graph a later backward in the same trace needs"


def nnl001(call: str, later_line: int, in_loop: bool = False) -> str:
    """The NNL001 headline: `call` frees the shared graph that the backward on `later_line` needs.

    `call` is the callee as written for the user, e.g. "backward()" or "torch.autograd.grad()".
    """
    later = (
        f"this call runs again (line {later_line}, in a loop)"
        if in_loop
        else f"the backward on line {later_line} runs later"
    )
    return (
        f"`{call}` frees the autograd graph that every invoke of this trace shares, "
        f"but {later} and needs it; pass `retain_graph=True`"
    )


# The run-time explanation appended under the headline by `nnsight_lint.runtime`.
NNL001_RUNTIME_CAUSE = (
    "Every `tracer.invoke(...)` of one trace is batched into a single forward pass, so all invokes "
    "share ONE autograd graph. An earlier backward in this trace{freed_at} ran without "
    "`retain_graph=True` and freed it."
)
NNL001_RUNTIME_ALREADY_RETAINING = (
    "This call already passes `retain_graph=True`; the EARLIER backward{freed_at} did not. "
    "Pass `retain_graph=True` there."
)
NNL001_RUNTIME_FIX = """\
Fix: pass `retain_graph=True` to every backward of the trace except the one that runs last:

    with model.trace() as tracer:
        with tracer.invoke(prompt_a):
            model.lm_head.output.sum().backward(retain_graph=True)
        with tracer.invoke(prompt_b):
            model.lm_head.output.sum().backward()"""
EXPLAIN_POINTER = "Run `nnsight-lint explain {code}` for the full explanation."
TORCH_ORIGINAL = "torch said: {text}"

LSP_MISSING_EXTRA = "the language server needs pygls; install it with `pip install 'nnsight-lint[lsp]'`"
RUNTIME_MISSING_EXTRA = (
    "nnsight_lint.runtime needs nnsight; install it with `pip install 'nnsight-lint[runtime]'`"
)
