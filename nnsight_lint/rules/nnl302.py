"""# NNL302: nnsight API that the targeted nnsight release does not have

## What it does
Reports every import, module attribute, member and keyword argument of nnsight's API that the
nnsight the project targets lacks: removed ("gone since 0.5") or not there yet ("arrived in 0.5;
the project targets 0.4.11"). What each release has is not typed by hand: it is read from the
releases themselves (`scripts/gen_api_table.py` installs the last release of every minor, 0.2 to
0.8, and records its modules, names, the members of the model wrapper, an Envoy, the tracer,
invoker, session and a module's output inside a trace, the keywords of `trace`, `generate`,
`scan`, `session`, `invoke` (with the 0.2-0.4 Invoker's own, `scan=`) and `LanguageModel(...)`,
and whether a trace body can open `with loss.backward():`, tried in a trace of each release:
since 0.5; on 0.2-0.4 `loss.backward()` is a proxy, and the `with` raises TypeError).

Names follow imports and aliases (`import nnsight as ns`, `from nnsight import LanguageModel as
LM`); members are checked on what nnsight handed out: a traced model or one bound to an nnsight
constructor, its module paths (`model.model.layers[0]`), a module's `.output` / `.input`, and the
`as` names of traces, invokes and sessions, and the parameters of a top-level helper that a call
hands one of these (`def stop(m): m.x.output.stop()` called as `stop(model)`). On a module path (an Envoy, a module's output) only
what the target removed is reported, not what it does not have yet: the path may end at a
parameter or a submodule of the model (`model.x.weight.save()`), which nnsight hands through.

## Why is this bad?
nnsight's API changed a lot between releases (proxies until 0.4, real tensors and a new tracer
since 0.5, `iter` instead of `next()` in 0.8). Code written for one release fails on another with
an `AttributeError`, `ImportError` or `TypeError` deep in a run, often after the model has loaded;
a keyword the new `trace` no longer takes may be passed on to the model and silently ignored.

## Example
```python
# the project pins nnsight>=0.8
with model.trace("hello world") as tracer:
    hidden = model.transformer.h[0].output.save()
    model.transformer.h[0].output.stop()   # NNL302: `.stop()` on a module's output is gone since 0.6
```

## Use instead
```python
with model.trace("hello world") as tracer:
    hidden = model.transformer.h[0].output.save()
    tracer.stop()
```

## Fix safety
Mechanical replacements from the migration map (`nnsight_lint/knowledge/nnsight_migrations.py`,
each with its source) are offered as fixes: `model._model` -> `model._module` (safe: the same
wrapped torch model); `<module>.output.stop()` -> `tracer.stop()` and `model.cache(...)` ->
`tracer.cache(...)` inside a trace with a tracer name (unsafe: the call moves to another object);
a keyword the target's call no longer takes is dropped (unsafe: its effect is gone, so check what
it did): `trace`'s and `generate`'s `scan=` / `validate=`, `invoke`'s `scan=`. Everything else says what to do by hand. `nnsight-lint migrate --to 0.8 PATH` applies
them all to a project and lists what needs a person.

## How to silence
Guarded code is not reported: a `try` whose handler catches what a missing name raises
(`ImportError`, `AttributeError`, `TypeError`, `Exception`), and both arms of an `if`, a
conditional expression or an `and`/`or` whose test calls `hasattr(...)` or reads a version
(`nnsight.__version__`). Otherwise `# noqa: NNL302`, or set `target-version`.
What NNL301 reports (`.value`, `.next()`, `tracer.apply`, `nnsight.list()` and the other 0.4 module
functions) is left to NNL301.

## Versions
Applies to every target from 0.2 to 0.8 (the releases the table records); a newer target is
checked against 0.8.
"""
from __future__ import annotations

import functools
from typing import FrozenSet, Iterator, Optional

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.analysis import FileModel
from nnsight_lint.analysis.api_uses import ApiUse, api_uses
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix
from nnsight_lint.knowledge import nnsight_api, nnsight_migrations
from nnsight_lint.rules.context import RuleContext

CODE = "NNL302"
NAME = "api-not-in-target"
SUMMARY = messages.NNL302_TITLE
DEFAULT = True
SINCE = (0, 2)
BEFORE = None
FIX = "unsafe"
RAISES = ("AttributeError", "ImportError", "ModuleNotFoundError", "TypeError")

# A module path may end at a parameter or a submodule of the user's (`model.x.weight.save()`): only
# what the target REMOVED from Envoys and outputs is reported there, not what it does not have yet.
_PATH_ROLES = ("envoy", "output")
# What NNL301 reports, with its own messages and fixes.
_NNL301_MEMBERS = frozenset({"value", "next", "apply"})
_NNL301_NAMES = frozenset({"nnsight.list", "nnsight.dict", "nnsight.log", "nnsight.apply", "nnsight.stop",
                           "nnsight.local", "nnsight.cond", "nnsight.iter"})


def check(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    target = context.target_version
    members = set(nnsight_api.table()["members"]["model"])
    memo = None if context.document_memo is None else context.document_memo.setdefault("api_uses", {})
    for use in api_uses(model, members, memo, _asked_members(target)):
        if use.guarded:
            continue
        found = _change(use, target)
        if found is None:
            continue
        change, node, what = found
        migration = nnsight_migrations.find(use.kind, use.role, change.name)
        instead = migration.instead if migration else (messages.NNL302_OLDER if change.removed else messages.NNL302_NEWER)
        if change.removed or change.added:
            message = messages.nnl302(what, use.kind, change.removed_text, change.added_text, change.release, instead)
        else:
            message = messages.nnl302_not_there(what, change.release, instead)
        fix = _fix(use, migration, context) if migration and not change.added else None
        yield context.diagnostic(CODE, node, message, fix)
    yield from _backward_blocks(model, context)


@functools.lru_cache(maxsize=None)
def _asked_members(target) -> FrozenSet[str]:
    """The members whose uses `_change` can report on `target`: the walk asks no other receiver's role."""
    return (nnsight_api.lacked_members(target) | nnsight_migrations.MOVED_TO_TRACER) - _NNL301_MEMBERS


def _backward_blocks(model: FileModel, context: RuleContext) -> Iterator[Diagnostic]:
    """`with loss.backward():` in a trace, on a release whose `backward()` gives no block (0.2-0.4)."""
    change = nnsight_api.block_change("backward", context.target_version)
    if change is None:
        return
    seen = set()
    for trace in model.traces:
        for block in trace.backward_blocks:
            if id(block) not in seen:
                seen.add(id(block))
                message = messages.nnl302("`with loss.backward():`", "block", change.removed_text, change.added_text,
                                          change.release, messages.NNL302_BACKWARD_BLOCK)
                yield context.diagnostic(CODE, block.items[0].item, message)


def _change(use: ApiUse, target):
    """(the change, the node to report, how to show the use) or None."""
    if use.kind == "module":
        change = nnsight_api.module_change(use.name, target)
        return (change, use.node, f"`{use.name}`") if change else None
    if use.kind == "name":
        if use.attribute is None and nnsight_api.module_change(use.name.rpartition(".")[0], target):
            return None  # `from <gone module> import x`: the module's finding says it
        for qualified, node in use.prefixes:  # the shortest missing prefix: `nnsight.contexts` of `...contexts.Tracer`
            if qualified is None or qualified in _NNL301_NAMES or qualified == "nnsight":
                continue
            change = nnsight_api.name_change(qualified, target)
            if change is not None:
                return change, node, f"`{qualified}`"
        return None
    if use.kind == "member":
        if use.name in _NNL301_MEMBERS:
            return None
        change = nnsight_api.member_change(use.role, use.name, target) or _moved_to_tracer(use, target)
        if change is None or (change.added and use.role in _PATH_ROLES):
            return None
        return change, use.attribute, f"`{_shown(use)}`"
    change = nnsight_api.keyword_change(use.role, use.name, target)
    return (change, use.node, f"`{use.role}(..., {use.name}=...)`") if change else None


def appendix() -> str:
    """The table's changes, generated: what `nnsight-lint explain NNL302` and docs/rules/NNL302.md list."""
    lines = ["## What the table records", "",
             "Generated from " + ", ".join(f"nnsight {r}" for r in nnsight_api.releases().values())
             + " (`scripts/gen_api_table.py`). `A:R`: there from A (empty: the first recorded) up to R, "
             "gone in R (empty: still there).", "", "| kind | name | releases |", "|---|---|---|"]
    lines += [f"| {kind} | `{name}` | {ranges} |" for kind, name, ranges in nnsight_api.removals()]
    return "\n".join(lines) + "\n"


def _moved_to_tracer(use: ApiUse, target) -> Optional[nnsight_api.Change]:
    """`model.cache(...)`: no release has it on the model, the target's tracer has it (the
    migration map says the call moves there)."""
    migration = nnsight_migrations.find("member", use.role, use.name)
    table = nnsight_api.table()["members"]
    if (migration is None or migration.fix != "tracer" or use.role != "model" or use.name in table["model"]
            or use.name not in table["tracer"] or nnsight_api.member_change("tracer", use.name, target) is not None):
        return None
    return nnsight_api.Change(use.name, release=nnsight_api.releases().get(nnsight_api._show(min(target, (0, 8))), ""))


_ROLE_SHOWN = {"model": "model", "envoy": "model.<module>", "tracer": "tracer", "generator": "tracer",
               "invoker": "invoker", "session": "session", "output": "<module>.output"}


def _shown(use: ApiUse) -> str:
    text = f"{_ROLE_SHOWN.get(use.role, use.role)}.{use.name}"
    return text + "()" if use.call is not None else text


def _fix(use: ApiUse, migration, context: RuleContext) -> Optional[Fix]:
    if migration.fix == "rename" and use.kind == "member":
        start, end = context.span(use.node)
        return Fix((Edit(start, end, migration.to),), safe=migration.safe)
    if migration.fix == "tracer" and use.kind == "member" and use.tracer and use.call is not None:
        start, end = context.span(use.receiver)
        return Fix((Edit(start, end, use.tracer),), safe=migration.safe)
    if migration.fix == "drop" and use.kind == "keyword" and use.call is not None:
        return _drop_keyword(use, context, migration.safe)
    return None


def _drop_keyword(use: ApiUse, context: RuleContext, safe: bool) -> Optional[Fix]:
    call: cst.Call = use.call
    args = [a for a in call.args if a is not use.node]
    if args and use.node is call.args[-1]:  # the new last argument keeps no trailing comma of its own
        args[-1] = args[-1].with_changes(comma=use.node.comma)
    start, end = context.span(call)
    text = context.module.code_for_node(call.with_changes(args=args))
    return Fix((Edit(start, end, text),), safe=safe)
