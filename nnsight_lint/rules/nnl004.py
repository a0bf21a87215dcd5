"""# NNL004: a module's `.output`/`.input` read inside `with loss.backward():`

## Symptom
Inside a backward block, reading a module's output or input fails with

    OutOfOrderError: 'model.transformer.h.1.output.i0' was requested but the model already ran
    past it

(nnsight 0.8; not the documented "Cannot request ... in a backwards tracer" ValueError).

## Cause
`with loss.backward():` runs the backward pass interleaved with its body: only gradients flow
there. The forward is no longer serving values, so `.output`, `.input` and `.inputs` cannot be
read inside the block, not even of a module the forward has not reached yet. The same holds for a
standalone backward block after the trace.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    with model.lm_head.output.sum().backward():
        hidden = model.transformer.h[1].output  # NNL004
        grad = hidden.grad.save()
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[1].output  # captured in the forward
    with model.lm_head.output.sum().backward():
        grad = hidden.grad.save()
```

## Versions
Applies from nnsight 0.5, where the `with loss.backward():` block exists.

## Fix safety
When the access is a plain `name = model.<...>.output` statement that opens the backward body
(nothing in the block runs before it), and reading it just before the `with` keeps the forward
order of the accesses around it (it comes after every module read before it, and before the
modules the `with` line reads for the loss), the fix moves that statement to just before the
`with`. It is safe: the same value is captured, in the forward, where it can be served. Otherwise
(e.g. the loss was taken from `lm_head` earlier) no fix is offered: the capture belongs higher up.
When the `with` line reads the name the statement binds (`with loss.backward(): loss = ...`), or a
walrus in it binds a name the statement reads or binds, moving the statement would change what the
backward computes: the fix is then unsafe (only `--unsafe-fixes` applies it).

## How to silence
Put `# noqa: NNL004` on the reported line, or `--ignore NNL004`.
"""
from __future__ import annotations

from typing import Iterator, Optional, Set, Tuple

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.forward_order import compare
from nnsight_lint.analysis.gradients import root_name
from nnsight_lint.analysis.model import Event, EventKind, ModuleAccess
from nnsight_lint.analysis.tree import body_of, children, subtree_ids
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position
from nnsight_lint.rules.context import RuleContext

CODE = "NNL004"
NAME = "backward-forward-access"
SUMMARY = messages.NNL004_TITLE
DEFAULT = True
SINCE = (0, 5)  # the `with loss.backward():` block came with nnsight 0.5
BEFORE = None
FIX = "safe"
RAISES = ("OutOfOrderError", "ValueError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    traced = {trace.model.split(".")[0] for trace in model.traces if trace.model}
    reported = set()
    for event in model.events:
        if event.kind is not EventKind.ACCESS or event.where.backward is None or id(event.node) in reported:
            continue
        if event.where.trace is not None:
            if not event.rooted:
                continue
        else:  # a standalone backward block: the chain starts at a model this file traces
            root = root_name(event.base)
            if root is None or root.value not in traced:
                continue
        reported.add(id(event.node))
        access = context.module.code_for_node(event.node)
        yield context.diagnostic(CODE, event.node, messages.nnl004(access), _hoist(model, event, context))


def _hoist(model: FileModel, event: Event, context: RuleContext) -> Optional[Fix]:
    """Move `name = model.<...>.output`, the first statement of the backward body, before the `with`."""
    block = event.where.backward
    body = body_of(block)
    if event.where.trace is None or event.where.helper or len(body) < 2 or not isinstance(block.body, cst.IndentedBlock):
        return None
    first = body[0]
    if not (isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1):
        return None
    statement = first.body[0]
    if not (
        isinstance(statement, cst.Assign)
        and statement.value is event.node
        and len(statement.targets) == 1
        and isinstance(statement.targets[0].target, cst.Name)
    ):
        return None
    if not _keeps_forward_order(model, event, block):
        return None
    # Moved above the `with`, the statement would run before its header: offered, but not applied
    # by plain `--fix`, when the header reads the name it binds (the backward would start from
    # another loss) or binds a name it reads (a walrus in the header).
    target = statement.targets[0].target.value
    header_reads, header_binds = _header_names(block)
    safe = target not in header_reads | header_binds and not (_names_read(statement.value) & header_binds)
    start, end = context.span(first)
    if start.line != end.line:
        return None
    with_line = context.start(block).line
    with_text = context.line_text(with_line)
    indent = with_text[: len(with_text) - len(with_text.lstrip(" \t"))]
    moved = indent + context.line_text(start.line).strip()
    newline = context.module.default_newline
    return Fix(
        (
            Edit(Position(with_line, 1), Position(with_line, 1), moved + newline),
            Edit(Position(start.line, 1), Position(start.line + 1, 1), ""),
        ),
        safe=safe,
    )


def _header_names(block: cst.With) -> Tuple[Set[str], Set[str]]:
    """The names the `with` header reads, and those a walrus in it binds."""
    reads: Set[str] = set()
    binds: Set[str] = set()
    for item in block.items:
        for node in _walk(item.item):
            if type(node) is cst.NamedExpr and type(node.target) is cst.Name:
                binds.add(node.target.value)
        reads |= _names_read(item.item)
    return reads - binds, binds


def _names_read(node: cst.CSTNode) -> Set[str]:
    return {n.value for n in _walk(node) if type(n) is cst.Name}


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def _keeps_forward_order(model: FileModel, event: Event, block: cst.With) -> bool:
    """Read before the `with`, the access must come after the modules its invoke read before it
    and before the ones the `with` line reads (the loss)."""
    moved = _position(event)
    header = set().union(*(subtree_ids(item.item) for item in block.items))
    for other in model.events:
        if other.order >= event.order:
            break
        if (
            other.kind is not EventKind.ACCESS
            or other.where.trace is not event.where.trace
            or other.where.invoke != event.where.invoke
            or other.where.backward is not None
            or other.where.excludes(event.where)  # another arm of an if, try or match: never both
        ):
            continue
        position = _position(other)
        if moved is None or position is None:
            return False
        wanted = ("<", "=") if id(other.node) in header else (">", "=")
        if compare(moved, position) not in wanted:
            return False
    return True


def _position(event: Event) -> Optional[ModuleAccess]:
    if not event.rooted or event.path is None:
        return None
    return ModuleAccess(event.path, "input" if event.access.startswith("input") else "output")
