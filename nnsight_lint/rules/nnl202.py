"""# NNL202: modules read against the order the forward reaches them

## Symptom
A trace fails with

    OutOfOrderError: 'model.transformer.h.0.output.i0' was requested but the model already ran past it

## Cause
An invoke's code runs alongside ONE forward pass and waits at each module it reads until the
forward gets there. Reading a module the forward has already passed can never be served:
`h[1].output` then `h[0].output`; a module's `.output` then its own `.input`; a block's output
then the output of a submodule inside it; GPT-2's `mlp` then the `attn` before it;
`model.generator.output` (handed over when generation ends) then a per-step module. Python's
evaluation order counts: in `h[0].output[:] = h[1].output` the right-hand side (`h[1]`) is read
first, and in `h[1].output - h[0].output` the left operand is.

## Wrong code
```python
with model.trace("The Eiffel Tower is in"):
    late = model.transformer.h[1].output.save()
    early = model.transformer.h[0].output.save()  # NNL202
```

## Right code
```python
with model.trace("The Eiffel Tower is in"):
    early = model.transformer.h[0].output.save()
    late = model.transformer.h[1].output.save()
```
Each invoke has its own order: reading `h[1]` in one invoke and `h[0]` in the next is fine, as
are separate traces. Reading the same `.output` twice gives the same tensor.

## What is decided
Only what the source decides: literal indices of one module list (`h[-1]` is after `h[0]`), a
module and its own submodules, Hugging Face names in a decoder block (embeddings, norms,
attention, MLP, layers, final norm, head), and named submodules whose order this file defines
(the keys of an `nn.Sequential(OrderedDict(...))`, the `self.<name>(...)` calls of a `forward`),
also when a loop walks a list of them. Inside a `tracer.iter` loop, reads are compared within one
pass (one step); the next pass starts a new step. `.grad` reads in a backward block are not
forward reads (they arrive in reverse order). Anything else is not reported.

## Fix safety
No automatic fix: reordering statements can change what they compute.

## How to silence
Put `# noqa: NNL202` on the reported line (the later read), or `--ignore NNL202`.

## Versions
nnsight 0.5 and later, which run a trace's code as it waits for each module of the forward. Up to
0.4 a trace built an intervention graph that hooks ran in the forward's own order, so the order
of the reads in the source did not matter.
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Tuple

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.paths import module_path as _module_path
from nnsight_lint.analysis.forward_order import compare
from nnsight_lint.analysis.model import Event, EventKind, ModuleAccess
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.shape import sibling_compare, sibling_orders
from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.rules.context import RuleContext, measured_order

CODE = "NNL202"
NAME = "module-order"
SUMMARY = messages.NNL202_TITLE
DEFAULT = True
SINCE = (0, 5)  # 0.5 on run a trace's code as it waits for each module (0.7: MissedProviderError);
BEFORE = None  # up to 0.4 a trace built a graph, so the order of the reads did not matter
FIX = None
RAISES = ("OutOfOrderError", "MissedProviderError", "NNsightException", "RuntimeError")  # vLLM: RuntimeError

_KIND = {"output": "output", "outputs": "output", "input": "input", "inputs": "input"}


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    orders = None
    groups: Dict[tuple, List[Tuple[Event, ModuleAccess]]] = {}
    reported = set()
    for event, access in _forward_reads(model):
        where = event.where
        key = (id(where.trace), where.invoke, id(where.iter))
        earlier = groups.setdefault(key, [])
        for before, before_access in earlier:
            if before.where.excludes(event.where):
                continue
            verdict = _order(before_access, access, measured_order(where.trace, context))
            if verdict == "?" and orders is None:  # only a file that defines an order can have one
                defines = any("OrderedDict" in line or "def forward" in line for line in context.lines)
                orders = sibling_orders(model.module) if defines else []
            if verdict == "?":
                verdict = sibling_compare(before_access.path, access.path, orders)
            if verdict == ">" and id(event.node) not in reported:
                reported.add(id(event.node))
                yield context.diagnostic(CODE, event.node, messages.nnl202(
                    _text(model, event, access), _text(model, before, before_access),
                    context.span(before.node)[0].line))
                break
        earlier.append((event, access))


def _forward_reads(model: FileModel) -> Iterator[Tuple[Event, ModuleAccess]]:
    """Static forward reads in evaluation order; a loop over a literal list of modules
    (`for layer in [net.layer2, net.layer1]`) reads each of them in turn."""
    listed = _listed_modules(model)
    for event in model.events:
        if event.kind is not EventKind.ACCESS or event.where.trace is None or event.where.backward is not None:
            continue
        kind = _KIND[event.access]
        if event.rooted and event.path is not None and "?" not in event.path:
            yield event, ModuleAccess(event.path, kind)
        elif type(event.base) is cst.Name and (id(event.where.trace), event.base.value) in listed:
            for path in listed[(id(event.where.trace), event.base.value)]:
                yield event, ModuleAccess(path, kind)


def _listed_modules(model: FileModel) -> Dict[tuple, List[tuple]]:
    """(trace, loop name) -> the module paths of `for name in [<model>.a, <model>.b]` in a trace."""
    found = {}
    for event in model.events:
        statement = event.statement
        if event.kind is not EventKind.BIND or event.where.trace is None or type(statement) is not cst.For:
            continue
        if type(statement.iter) not in (cst.List, cst.Tuple) or statement.target is not event.node:
            continue
        root = (event.where.trace.model or "").split(".")[0]
        paths = []
        for element in statement.iter.elements:
            name = dotted_name(element.value)
            path = _module_path(element.value, {}) if name and name.split(".")[0] == root else None
            if path is None or "?" in path:
                break
            paths.append(path)
        else:
            found[(id(event.where.trace), event.name)] = paths
    return found


def _order(a: ModuleAccess, b: ModuleAccess, times=None) -> str:
    verdict = compare(a, b, times)
    if verdict == "?" and ("generator",) in (a.path, b.path) and a.path[:1] != b.path[:1]:
        # The generator's output is handed over when generation ends, after every step's modules.
        return ">" if a.path == ("generator",) else "<"
    return verdict


def _text(model: FileModel, event: Event, access: ModuleAccess) -> str:
    if event.rooted:
        return model.module.code_for_node(event.node)
    return str(access).replace("model", event.where.trace.model or "model", 1)
