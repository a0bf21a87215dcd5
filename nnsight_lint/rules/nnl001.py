"""# NNL001: backward frees the graph a later backward in the same trace needs

## Symptom
A trace with several invokes (or several backwards) dies in the second backward with torch's

    RuntimeError: Trying to backward through the graph a second time (or directly access saved
    tensors after they have already been freed). ...

although each invoke calls `.backward()` only once. The message points at torch, not at the cause.

## Cause
Every `with tracer.invoke(...)` body of one `with model.trace()` is batched into ONE forward pass,
so all invokes of the trace share ONE autograd graph. The first backward that runs without
`retain_graph=True` frees that graph; the next backward of the same trace needs it and fails.

"First" means first at run time, not in the source: nnsight runs an invoke's code until it waits
for a module, so a backward whose loss comes from `model.transformer.h[1].output` runs when the
forward reaches `h[1]`, before a backward on `model.lm_head.output` written in an earlier invoke.
A backward in a loop inside a trace frees the graph its own next iteration needs.

## Wrong code
```python
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()  # NNL001: frees the shared graph
    with tracer.invoke("a dog ran"):
        model.lm_head.output.sum().backward()  # fails: the graph is gone
```

## Right code
```python
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward(retain_graph=True)
    with tracer.invoke("a dog ran"):
        model.lm_head.output.sum().backward()  # runs last: may free the graph
```
Each invoke's gradients are the same as when its prompt is traced alone.

## Fix safety
The fix adds `retain_graph=True` (or turns a `False`/`None` retain flag into `True`) on every
backward that runs before another backward of the same trace. It is safe: it keeps the graph's
saved tensors alive until the trace ends, which costs peak memory, and never changes a gradient.

## How to silence
Put `# noqa: NNL001` on the reported line, or `--ignore NNL001`. When the flag is computed at run
time (`retain_graph=i < n - 1`), nnsight-lint cannot decide it and does not report.
"""
from __future__ import annotations

from typing import Iterator, List, Optional

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import BackwardCall, FileModel, Retains
from nnsight_lint.analysis.forward_order import runs_before
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position
from nnsight_lint.rules.context import RuleContext

CODE = "NNL001"
NAME = "backward-frees-shared-graph"
SUMMARY = messages.NNL001_TITLE
DEFAULT = True
SINCE = BEFORE = None  # every nnsight: invokes have always shared one forward
FIX = "safe"
RAISES = ("RuntimeError",)


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for trace in model.traces:
        if trace.kind != "trace" or trace.grad_disabled:
            continue  # no graph there (generate runs under no_grad): backwards fail another way
        for call in trace.backwards:
            if call.retains is not Retains.NO or id(call.name) in reported:
                continue
            message = _message(call, trace.backwards, context)
            if message is not None:
                reported.add(id(call.name))
                yield context.diagnostic(CODE, call.name, message, _fix(call, context))


def _message(call: BackwardCall, backwards: List[BackwardCall], context: RuleContext) -> Optional[str]:
    later = [
        other
        for other in backwards
        if other is not call
        and not call.excludes(other)
        and call.shared_origins(other)
        and runs_before(other, call) is not True
    ]
    if later:
        # Name a backward that certainly runs later when there is one.
        needs = next((o for o in later if runs_before(call, o)), later[0])
        return messages.nnl001(call.kind.value, context.span(needs.name)[0].line)
    if call.repeats_in_loop():
        return messages.nnl001(call.kind.value, context.span(call.name)[0].line, in_loop=True)
    return None


def _fix(call: BackwardCall, context: RuleContext) -> Fix:
    """`retain_graph=True`: rewrite the flag where one is given (a keyword, a positional argument,
    or a value in the `**mapping` literal), else add the keyword."""
    value = call.retention.value_node
    if value is not None:
        start, end = context.span(value)
        return Fix((Edit(start, end, "True"),))
    return Fix(_add_keyword(call.call, context))


def _add_keyword(call: cst.Call, context: RuleContext) -> "tuple[Edit, ...]":
    """The edits that append `retain_graph=True` to a call's arguments, in the call's own layout."""
    keyword = "retain_graph=True"
    newline = context.module.default_newline
    call_end = context.span(call)[1]
    close = Position(call_end.line, call_end.column - 1)  # at the `)`

    def indent(line: int) -> str:
        text = context.line_text(line)
        return text[: len(text) - len(text.lstrip(" \t\f"))]

    if not call.args:
        opening = call.whitespace_before_args
        if isinstance(opening, cst.ParenthesizedWhitespace):
            # `backward(  # comment` / `)`: a line of its own, one indent deeper than the `)`.
            at = Position(close.line, 1)
            return (Edit(at, at, f"{indent(close.line)}{context.module.default_indent}{keyword},{newline}"),)
        return (Edit(close, close, keyword),)
    last = call.args[-1]
    # The whole argument: a value's own span leaves out its parentheses, `f((g))` ends after `g`.
    start, end = context.span(last)
    if len(call.args) == 1 and isinstance(last.value, cst.GeneratorExp) and not last.value.lpar:
        # `f(x for x in xs)` takes no second argument until the generator has its own parentheses.
        return (Edit(start, start, "("), Edit(end, end, f"), {keyword}"))
    has_comma = isinstance(last.comma, cst.Comma)
    after_last = last.comma.whitespace_after if has_comma else last.whitespace_after_arg
    if isinstance(after_last, cst.ParenthesizedWhitespace):
        # The `)` sits on a later line: ours goes on a line of its own, indented like the last one.
        if has_comma:
            at = Position(context.span(last.comma)[1].line + 1, 1)
            return (Edit(at, at, f"{indent(start.line)}{keyword},{newline}"),)
        at = Position(close.line, 1)
        return (Edit(end, end, ","), Edit(at, at, f"{indent(start.line)}{keyword}{newline}"))
    if has_comma:
        comma_end = context.span(last.comma)[1]
        return (Edit(comma_end, comma_end, f" {keyword},"),)
    return (Edit(end, end, f", {keyword}"),)
