"""What replaced an nnsight API the generated table (`nnsight_api.json`) says is gone: a small
hand-kept map on top of the table. The table decides WHETHER and WHEN something is gone (read from
the releases); an entry here only says WHAT TO WRITE INSTEAD, and whether `--fix` can do it.

Each entry names its source: the release whose table row shows the change, and the page or pull
request of nnsight that describes the replacement.

`fix`: "rename" (the member becomes `to`), "tracer" (the call moves to the enclosing trace's
tracer: `model.cache(...)` -> `tracer.cache(...)`), "drop" (the keyword goes), or None (by hand).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple


@dataclass(frozen=True)
class Migration:
    instead: str  # the end of the finding's message: what to write instead
    fix: Optional[str] = None
    to: str = ""
    safe: bool = False
    source: str = ""


_RELEASE_0_5 = "nnsight 0.5.0 (ndif-team/nnsight PR #456, \"0.5 Updates\": the tracer rewrite)"

MIGRATIONS: Dict[Tuple[str, Optional[str], str], Migration] = {
    ("member", "model", "_model"): Migration(
        "the wrapped torch model is `model._module`", fix="rename", to="_module", safe=True,
        source="the table: the model's `_model` is there up to 0.7.0 and gone in 0.8.1, `_module` answers in "
               "every release (0.2-0.4 through the Envoy)",
    ),
    ("member", "model", "cache"): Migration(
        "inside the trace call `tracer.cache(...)` (it returns the cache; save it)", fix="tracer",
        source="nnsight docs, documentation/intervention/tracing/tracer (InterleavingTracer.cache); the table",
    ),
    ("member", "output", "stop"): Migration(
        "stop the trace with `tracer.stop()` after the last value you need", fix="tracer",
        source="the table: a module's output answers `.stop()` inside a trace up to 0.5.15, not on 0.6.3 "
               "(a plain tensor); `tracer.stop()` on every tracer since 0.4; nnsight docs (early stopping)",
    ),
    ("module", None, "nnsight.contexts"): Migration(
        "since 0.4 the tracer types live in `nnsight.intervention` (0.4) and "
        "`nnsight.intervention.tracing` (0.5+); most code needs no import: use the `as` name of `model.trace()`",
        source="nnsight 0.4.0 (the contexts package became nnsight.intervention.contexts); the table",
    ),
    ("name", None, "nnsight.intervention.InterventionProxy"): Migration(
        "0.4 has it in `nnsight.intervention.graph`; since 0.5 values in a trace are real tensors: annotate "
        "with `torch.Tensor`", source=f"the table (gone from nnsight.intervention in 0.4); {_RELEASE_0_5}",
    ),
    ("name", None, "nnsight.envoy.Envoy"): Migration(
        "import `Envoy` from `nnsight` (`from nnsight import Envoy`)", source="the table: nnsight.Envoy in every release",
    ),
    ("keyword", "trace", "scan"): Migration(
        "0.5+ runs the real forward: drop `scan=` (use `model.scan(...)` for shapes)", fix="drop",
        source=f"{_RELEASE_0_5}; the table: trace(scan=) gone in 0.5",
    ),
    ("keyword", "trace", "validate"): Migration(
        "0.5+ has no validation pass: drop `validate=`", fix="drop",
        source=f"{_RELEASE_0_5}; the table",
    ),
    ("keyword", "invoke", "scan"): Migration(
        "0.5+ runs the real forward: drop `scan=` (the invoke's other keywords go to the model's inputs, "
        "which ignore it)", fix="drop",
        source=f"{_RELEASE_0_5}; the table: invoke(scan=) (the 0.2-0.4 Invoker's own keyword) gone in 0.5",
    ),
    ("keyword", "trace", "invoker_args"): Migration(
        "pass the invoke's keywords to `tracer.invoke(...)` itself", source="the table: trace(invoker_args=) gone in 0.4",
    ),
}


# What answers for another: a generate's tracer is the tracer's class; `generate(...)` takes the
# keywords `trace(...)` takes (both hand them to the same tracer).
_SAME = {"generator": "tracer", "generate": "trace"}


def find(kind: str, role: Optional[str], name: str) -> Optional[Migration]:
    return MIGRATIONS.get((kind, role, name)) or (
        MIGRATIONS.get((kind, _SAME[role], name)) if role in _SAME else None
    )


# The members a use of moves to the tracer (`fix="tracer"`): on a target whose model has no such
# member, a release's tracer may.
MOVED_TO_TRACER = frozenset(name for (kind, _, name), migration in MIGRATIONS.items()
                            if kind == "member" and migration.fix == "tracer")
