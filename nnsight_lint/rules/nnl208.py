"""# NNL208: a trace written in the body of a `%%time` / `%%timeit` / `%%prun` cell

## Symptom
    WithBlockNotFoundError: nnsight has no source for <timed exec>, so it cannot read the body of
    the `with` block at line 1.

(`<magic-timeit>` for `%%timeit`, `<string>` for `%%prun`), or for `model.generate`

    TypeError: 'Tensor' object does not support the context manager protocol

## Cause
nnsight does not let Python run a traced block: it reads the block's source back and runs it
itself. A Jupyter cell's source can be read back, but `%%time`, `%%timeit` and `%%prun` do not run
their body as a cell: IPython compiles it under a name of its own (`<timed exec>`), for which no
source exists (`generate`, finding no block, runs the generation at once and hands `with` its
output). Every trace, generate or session written in such a cell fails, also one inside a
function or method the cell defines (when the function is called, from any cell). `%%capture`
runs its body as a cell and works, unless its body is itself a `%%time` cell. A trace in a
function defined in another cell and only called from the `%%time` cell works too: its source is
that cell's (checked on nnsight 0.8.1, IPython 9.18).

## Wrong code
```ipython
%%time
with model.trace("The Eiffel Tower is in"):  # NNL208
    logits = model.lm_head.output.save()
```

## Right code
```ipython
def run():
    with model.trace("The Eiffel Tower is in"):
        return model.lm_head.output.save()
```
```ipython
%%time
logits = run()
```
or `%time logits = run()` on one line.

## Where it looks
Notebooks (`.ipynb`), and notebook cells an editor sends: the cell magic is the first line of
the cell that is not blank. Not yet in a `# %%` script (which VS Code's interactive window runs in
IPython too): its `%%time` line is masked, and the rule does not see it. A trace in a function the
cell defines is reported even if nothing calls it: no call of it can work.

## Fix safety
No automatic fix: where the function goes and what it returns are the author's.

## How to silence
Put `# noqa: NNL208` on the `with` line, or `--ignore NNL208`.
"""
from __future__ import annotations

from typing import Iterator, List

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL208"
NAME = "trace-in-timed-cell"
SUMMARY = messages.NNL208_TITLE
DEFAULT = True
SINCE, BEFORE = (0, 5), None  # nnsight reads a trace's source back since 0.5
FIX = None
RAISES = ("WithBlockNotFoundError", "NNsightException", "TypeError")


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    if not context.cell_magics:
        return
    # The outermost traced `with`s: a session, and the traces no session or trace holds.
    blocks = [(session.node, session.call) for session in model.sessions]
    blocks += [(trace.node, trace.call) for trace in model.traces if trace.session is None and trace.parent is None]
    reported: List[range] = []
    for node, call in sorted(blocks, key=lambda pair: context.start(pair[0])):
        start, end = context.span(node)
        magic = context.cell_magics.get(start.line)
        if magic is None or call is None or any(start.line in span for span in reported):
            continue
        reported.append(range(start.line, end.line + 1))
        yield context.diagnostic(CODE, node, messages.nnl208(magic, context.module.code_for_node(call.func)))
