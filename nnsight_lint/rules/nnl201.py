"""# NNL201: code after an open `tracer.iter[:]` loop, which never runs

## Symptom
Names bound after a `for step in tracer.iter[:]:` (or `tracer.all()`) loop are undefined after the
trace (`NameError`), an append after the loop is missing, and the only sign is a warning:

    UserWarning: 'model.lm_head.output.i3' was never reached: the loop asked for a step the run
    did not make, so it was cut short — values saved inside the loop are kept, and the statements
    after it did not run. ...

After a bounded loop (`tracer.iter[:3]`) in a generate trace, a module read fails instead:

    OutOfOrderError: 'model.lm_head.output.i0' was requested but the model already ran past it

## Cause
An open loop has no end of its own: it asks for one step more than the model makes, and nnsight
0.8 ends it by unwinding the block there, so nothing after the loop in the same invoke runs — not
even pure Python. The deprecated block form `with tracer.iter[:]:` / `with tracer.all():` lets pure
Python after it run, but the first request to the model after it (a module's `.output`,
`tracer.result`) waits forever and is dropped with everything after it, without a warning.
After a bounded loop the step is no longer pinned: a module read means step 0, long gone.

## Wrong code
```python
steering = 0.5 * model.transformer.wte.weight[0].detach()  # one token's embedding, as a direction

with model.generate("The Eiffel Tower is in", max_new_tokens=3) as tracer:
    for step in tracer.iter[:]:
        model.transformer.h[1].output[:] += steering
    tokens = tracer.result.save()  # NNL201: never runs
```

## Right code
```python
steering = 0.5 * model.transformer.wte.weight[0].detach()

with model.generate(max_new_tokens=3) as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        for step in tracer.iter[:]:
            model.transformer.h[1].output[:] += steering
    with tracer.invoke():
        tokens = tracer.result.save()
```
After a bounded loop, pure Python, `model.generator.output` and `tracer.result` are fine, and a
second `for step in tracer.iter[k]:` loop pins its own step. A loop left by `break` ends inside the
run, so what follows it runs.

## Versions
nnsight 0.8 and later. On 0.7 the statements after an open loop still ran.

## Fix safety
No automatic fix: where the code should go (a new invoke, or inside the loop) is the author's call.

## How to silence
Put `# noqa: NNL201` on the reported line (the first statement after the loop), or
`--ignore NNL201`.
"""
from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.model import EventKind, IterLoop, Trace, Tri
from nnsight_lint.analysis.shape import anchor, breaks_out, is_request, statement_events
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL201"
NAME = "iter-trailing-code"
SUMMARY = messages.NNL201_TITLE
DEFAULT = True
SINCE = (0, 8)  # 0.7 still ran the statements after an open loop
BEFORE = None
FIX = None
RAISES = ("NameError", "UnboundLocalError", "OutOfOrderError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    reported = set()
    for trace in model.traces:
        for loop in trace.iters:
            found = _trailing(model, trace, loop)
            if found is None or id(found[0]) in reported:
                continue
            reported.add(id(found[0]))
            yield context.diagnostic(CODE, found[0], found[1])


def _trailing(model: FileModel, trace: Trace, loop: IterLoop) -> Optional[tuple]:
    """The statement to report after `loop` and the message, or None."""
    is_block = isinstance(loop.node, cst.With)
    header = loop.node.items[0].item if is_block else loop.node.iter
    text = model.module.code_for_node(header)
    if loop.bounded is Tri.NO and not breaks_out(loop.node):
        for statement in loop.following:
            if not is_block:
                return anchor(statement), messages.nnl201_open(text)
            if any(is_request(e) for e in statement_events(model, trace, statement)):
                return anchor(statement), messages.nnl201_block(text)
    elif loop.bounded is Tri.YES and trace.kind == "generate":
        repinned = {id(other.node) for other in trace.iters}
        for statement in loop.following:
            if id(statement) in repinned:
                return None
            for event in statement_events(model, trace, statement):
                if _per_step_access(event, loop):
                    return anchor(statement), messages.nnl201_bounded(text)
    return None


def _per_step_access(event, loop: IterLoop) -> bool:
    """A module read that binds to a generation step (not the generator's end-of-run output), made
    where the bounded loop's own step pinning no longer holds (not inside a later iter loop)."""
    return (
        event.kind is EventKind.ACCESS
        and event.rooted
        and event.path is not None
        and event.path[:1] != ("generator",)
        and event.where.iter is loop.where.iter
    )
