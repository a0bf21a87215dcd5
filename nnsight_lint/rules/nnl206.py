"""# NNL206: a traced `with` laid out so nnsight cannot find its block

## Symptom
    ValueError: The body of a traced `with` must start on its own line; nnsight runs the body
    itself, and can only intercept it at the start of a line.

or

    ValueError: A traced `with` block cannot start with `try:`; ...

or, for `with (<loss over several lines>).backward():`,

    TypeError: 'NoneType' object does not support the context manager protocol

## Cause
nnsight does not let Python run a traced block: it stops it at the start of the body's first
line and runs the body itself. A body written on the `with` line has no line of its own to be
stopped at, and a `try:` as the first statement is a line Python gives no way back out of. This
holds for every traced `with`: `model.trace`, `model.generate`, `tracer.invoke`,
`with loss.backward():`, `model.session()` and the block form of `tracer.iter` / `tracer.all()`.
A backward block is looked for when `.backward()` is called, on the line Python reports for that
call (the line of the `backward` name): when that is neither the `with` line nor the first line of
its item, nnsight finds no block there, runs a plain backward, and `with` is handed its `None`
(checked on nnsight 0.8.1, Python 3.11).

## Wrong code
```python
with model.trace("The Eiffel Tower is in"): logits = model.lm_head.output.save()  # NNL206
```

```python
with model.trace("The Eiffel Tower is in"):
    with (
        model.lm_head.output.sum()
    ).backward():  # NNL206
        grad = model.transformer.wte.weight.grad.save()
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    logits = model.lm_head.output.save()
```
```python
with model.trace("The Eiffel Tower is in"):
    loss = model.lm_head.output.sum()
    with loss.backward():
        grad = model.transformer.wte.weight.grad.save()
```
For a `try`, put any statement above it, or move the `try` outside the block. Since nnsight 0.8,
`with model.trace(x): pass` and a header spread over lines whose body sits on its closing line
are accepted.

## Fix safety
Safe for a body on the `with` line: it moves onto its own indented line(s), indented as the file
indents. No fix for `try:` or a `.backward()` on a later line.

## How to silence
Put `# noqa: NNL206` on the `with` line, or `--ignore NNL206`.
"""
from __future__ import annotations

from typing import Iterator, List, Optional

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position
from nnsight_lint.rules.context import RuleContext

CODE = "NNL206"
NAME = "with-body-layout"
SUMMARY = messages.NNL206_TITLE
DEFAULT = True
SINCE = BEFORE = None  # 0.7 refused both layouts too, with misleading errors
FIX = "safe"
RAISES = ("ValueError", "ExitTracingException", "NNsightException", "TypeError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    seen = set()
    for node in _traced_withs(model):
        if id(node) in seen:
            continue
        seen.add(id(node))
        body = node.body
        if isinstance(body, cst.SimpleStatementSuite):
            if not _on_with_line(node, context):
                continue
            if context.target_version >= (0, 8) and all(type(s) is cst.Pass for s in body.body):
                continue
            yield context.diagnostic(CODE, node, messages.NNL206_INLINE, _own_line(node, context))
        elif body.body and isinstance(body.body[0], (cst.Try, cst.TryStar)):
            yield context.diagnostic(CODE, node, messages.NNL206_TRY)
    found = set()
    for trace in model.traces:
        for block in trace.backward_blocks:
            if id(block) not in found and _backward_called_below(block, context):
                found.add(id(block))
                yield context.diagnostic(CODE, block, messages.NNL206_BACKWARD_LINE)


def _backward_called_below(block: cst.With, context: RuleContext) -> bool:
    """Is the `backward` of a `with <loss>.backward():` on another line than both the `with` and
    the first line of its item (where nnsight looks for the block when backward is called)? The
    item starts on or after the `with` line, so: does a line break come between the item's start
    and `backward`, i.e. inside `<loss>.backward`'s own code (no positions needed)?"""
    for item in block.items:
        call = item.item
        if type(call) is cst.Call and type(call.func) is cst.Attribute and call.func.attr.value == "backward":
            code = context.module.code_for_node(call.func)
            return "\n" in code or "\r" in code
    return False


def _traced_withs(model: FileModel) -> Iterator[cst.With]:
    for trace in model.traces:
        yield trace.node
        yield from (invoke.node for invoke in trace.invokes)
        yield from trace.backward_blocks
        yield from (loop.node for loop in trace.iters if isinstance(loop.node, cst.With))
    yield from (session.node for session in model.sessions)


def _on_with_line(node: cst.With, context: RuleContext) -> bool:
    """nnsight compares the body's line with the `with` keyword's line (0.7 refused any suite)."""
    if context.target_version < (0, 8):
        return True
    return context.span(node.body.body[0])[0].line == context.span(node)[0].line


def _own_line(node: cst.With, context: RuleContext) -> Optional[Fix]:
    """Replace ` body; more` after the colon with the statements on indented lines of their own."""
    statements: List[cst.BaseSmallStatement] = list(node.body.body)
    start, _ = context.span(statements[0])
    _, end = context.span(statements[-1])
    if start.line != end.line:
        return None
    line = context.line_text(start.line)
    colon = line.rfind(":", 0, start.column - 1)
    if colon < 0 or line[colon + 1 : start.column - 1].strip():
        return None
    with_line = context.line_text(context.span(node)[0].line)
    indent = with_line[: len(with_line) - len(with_line.lstrip(" \t"))] + context.indent
    newline = context.module.default_newline
    code = "".join(newline + indent + context.module.code_for_node(s).strip().rstrip(";").strip() for s in statements)
    return Fix((Edit(Position(start.line, colon + 2), end, code),), safe=True)
