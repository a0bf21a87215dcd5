"""# NNL601: a remote block reads an object nnsight's request cannot carry

## Symptom
A `remote=True` trace or session fails on your machine, before the request is sent:

    _pickle.PicklingError: Cannot pickle files that are not opened for reading: w
    TypeError: cannot pickle 'generator' object
    TypeError: cannot pickle '_thread.lock' object

## Cause
A remote block does not run here. nnsight 0.8 sends the server the block's source plus every name
the block reads (`nnsight.intervention.serialization.code_reduce`: any `Load` of a name anywhere in
the block, even after the block rebinds it), pickled with cloudpickle
(`nnsight.schema.request.RequestModel.serialize`). A file opened for writing, a generator, a lock,
a socket or a database connection cannot be pickled, so building the request fails.

## Wrong code
```python
log = open("results.txt", "w")
with model.trace("The Eiffel Tower is in", remote=True):
    logits = model.lm_head.output.save()
    log.write("done")  # NNL601
```

## Right code
```python
log = open("results.txt", "w")
with model.trace("The Eiffel Tower is in", remote=True):
    logits = model.lm_head.output.save()
log.write(f"{logits.argmax(-1)}")  # after the block, on the saved value
```
Not reported: files opened for reading (cloudpickle ships their content), objects made inside
the block, a `remote=` that is not literally `True` or a host (a `remote=REMOTE` flag bound once to
`True` counts), and classes and functions from your own files: nnsight 0.8 pickles the project's
modules by value (`nnsight.ndif.pull_env`) and functions by their source, so they travel.

## Family
NNL6xx is "remote": what a block sent to NDIF must be for nnsight to build its request and for
the server to run it. With the runtime hook installed, a remote trace or session is linted before
it is submitted and refused when it has findings (docs/runtime.md, "Remote pre-flight").

## Versions
Grounded in nnsight 0.8.1's serialisation and checked with `remote="local"`, which builds the
same request; applies from 0.8.

## Fix safety
No automatic fix: what to do with the object after the block is the author's call.

## How to silence
Put `# noqa: NNL601` on the reported line (the read), or `--ignore NNL601`.
"""
from __future__ import annotations

from typing import Iterator

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.remote import remote_blocks, shipped_reads, unpicklable_binding
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext

CODE = "NNL601"
NAME = "remote-unpicklable-value"
SUMMARY = messages.NNL601_TITLE
DEFAULT = True
SINCE = (0, 8)
BEFORE = None
FIX = None
RAISES = ("PicklingError", "TypeError")
SURFACES = "trace"  # the request is built when the block ends


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    if "remote" not in context._text:
        return
    for block in remote_blocks(model):
        opener = model.module.code_for_node(block.call.func)
        seen = set()
        for read in shipped_reads(model, block):
            if read.name in seen:
                continue
            seen.add(read.name)
            what = unpicklable_binding(model, read.name, block.start)
            if what is None or context.deliberate(CODE, read.node):
                continue
            yield context.diagnostic(CODE, read.node, messages.nnl601(read.name, what, opener))
