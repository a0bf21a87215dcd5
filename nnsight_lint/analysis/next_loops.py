"""nnsight 0.4's generation loop, `for i in range(N): ...; model.next()` inside `model.generate(...)`
(0.5-0.7: `tracer.next()`): the shape whose nnsight 0.8 form is mechanical, `for i in
tracer.iter[:N]: ...` (checked by running both: `tests/migration_programs/v04_next_loop.py` on
0.4.11, the same loop with `tracer.next()` on 0.5.15, saved values equal on 0.8.1).

On 0.4 the loop runs while the trace is built, once per step, and `model.next()` moves every module
of the model on to its next call; `tracer.iter[:N]` hands out the same step numbers 0..N-1 and
binds the body's reads and writes to each step in turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from nnsight_lint.analysis.model import Event
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.tree import children

_LEAVES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_JUMPS = (cst.Break, cst.Continue, cst.Return, cst.Yield, cst.Await)


@dataclass(frozen=True)
class NextLoop:
    loop: cst.For
    count: cst.BaseExpression  # the N of `range(N)`
    step: cst.SimpleStatementLine  # the `model.next()` line the loop ends with
    tracer: Optional[str]  # the generate's `as` name; None: the `with` has none


def next_loop(event: Event) -> Optional[NextLoop]:
    """The loop a `.next()` CALL event ends, when the migration is mechanical: the call is
    `<the generated model>.next()` (0.4: every module steps) or `<its tracer>.next()` (0.2-0.3,
    0.5-0.7: the next step), the last statement of a `for ... in
    range(N)` (or `range(0, N)`) that is the only loop around it in a generate trace, whose body
    does something else too and never leaves early (`break`, `continue`, `return`), has no
    `else:` and no other `.next()`. None otherwise: the finding says what to do by hand."""
    where, call = event.where, event.node
    trace = where.trace
    if trace is None or trace.kind != "generate" or where.helper or where.iter is not None or len(where.loops) != 1:
        return None
    func = call.func
    owner = dotted_name(func.value) if isinstance(func, cst.Attribute) else None
    if call.args or owner is None or owner not in (trace.model, trace.tracer):
        return None
    loop = _loop_ending_with(trace.node, call)
    if loop is None or id(loop) != where.loops[0] or loop.orelse is not None or loop.asynchronous is not None:
        return None
    count = _range_count(loop.iter)
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    if count is None or len(body) < 2 or any(_leaves_or_steps(s, call) for s in body[:-1]):
        return None
    return NextLoop(loop, count, body[-1], trace.tracer)


def _loop_ending_with(root: cst.CSTNode, call: cst.Call) -> Optional[cst.For]:
    stack = [root]
    while stack:
        node = stack.pop()
        if type(node) is cst.For and isinstance(node.body, cst.IndentedBlock) and node.body.body:
            last = node.body.body[-1]
            if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 \
                    and isinstance(last.body[0], cst.Expr) and last.body[0].value is call:
                return node
        if not isinstance(node, _LEAVES) and not isinstance(node, cst.BaseExpression):
            stack.extend(children(node))
    return None


def _range_count(iterated: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    if not (isinstance(iterated, cst.Call) and isinstance(iterated.func, cst.Name) and iterated.func.value == "range"):
        return None
    args = iterated.args
    if any(a.keyword is not None or a.star for a in args):
        return None
    if len(args) == 1:
        return args[0].value
    if len(args) == 2 and isinstance(args[0].value, cst.Integer) and args[0].value.evaluated_value == 0:
        return args[1].value
    return None


def _leaves_or_steps(node: cst.CSTNode, call: cst.Call) -> bool:
    """Does the statement leave the loop early or call `.next()` itself (a step inside a step)?"""
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, _JUMPS):
            return True
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "next":
            return True
        if not isinstance(node, _LEAVES):
            stack.extend(children(node))
    return False
