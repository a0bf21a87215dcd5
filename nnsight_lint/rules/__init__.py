"""The rule registry. A rule is one module with:

- `CODE`, `NAME` (kebab-case), `SUMMARY` (one line), and a docstring that is its full explanation
  (the docs page and `nnsight-lint explain` print it);
- `DEFAULT`: on unless a user selects otherwise (False: opt-in, only when `select` names the code);
- `SINCE` / `BEFORE`: the nnsight versions it applies to, as (major, minor) or None for unbounded,
  compared with the `target-version` setting;
- `FIX`: "safe", "unsafe" or None; `RAISES`: the exception class names its mistake raises at run
  time, so that code which shows the error on purpose (`pytest.raises`, a `try` catching it) is
  not reported by default;
- `check(model, context)`, yielding diagnostics;
- optionally `appendix()`: text generated from the knowledge, appended to the explanation.

`CODES` is known without importing any rule (rule modules import libcst, which costs more than
a run that the pre-filter answers); `RULES` imports them on first use.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Dict, Iterable, List, Optional, Tuple

CODES = (
    "NNL000", "NNL001", "NNL002", "NNL003", "NNL004", "NNL005", "NNL006", "NNL007",  # gradients
    "NNL101", "NNL102", "NNL103", "NNL104", "NNL105",  # values across trace and invoke boundaries
    "NNL201", "NNL202", "NNL203", "NNL204", "NNL205", "NNL206", "NNL207", "NNL208",  # the shape of a trace
    "NNL301", "NNL302",  # the nnsight API across releases
    "NNL401", "NNL402", "NNL403", "NNL404",  # the model a trace runs on
    "NNL501", "NNL502", "NNL503", "NNL504", "NNL505", "NNL506", "NNL507",  # model lifecycle and inputs
    "NNL601", "NNL602",  # remote (NDIF) runs
)
_MODULES = {code: f"nnsight_lint.rules.{code.lower()}" for code in CODES}
_loaded: Dict[str, ModuleType] = {}


def __getattr__(name: str):
    if name == "RULES":
        if not _loaded:
            _loaded.update((code, importlib.import_module(module)) for code, module in _MODULES.items())
        return _loaded
    raise AttributeError(name)


def rule(code: str) -> ModuleType:
    return __getattr__("RULES")[code]


def explanation(code: str) -> str:
    """The rule's docstring, and what its `appendix()` generates (NNL302: the table's removals)."""
    module = importlib.import_module(_MODULES[code])
    appendix = getattr(module, "appendix", None)
    return module.__doc__.strip() + "\n" + ("\n" + appendix() if appendix is not None else "")


def is_known_prefix(prefix: str) -> bool:
    return any(code.startswith(prefix) for code in CODES)


def is_default(code: str) -> bool:
    return getattr(rule(code), "DEFAULT", True)


def applies(code: str, target: Tuple[int, int]) -> bool:
    """Does the rule describe the nnsight the project targets?"""
    module = rule(code)
    since: Optional[Tuple[int, int]] = getattr(module, "SINCE", None)
    before: Optional[Tuple[int, int]] = getattr(module, "BEFORE", None)
    return (since is None or target >= since) and (before is None or target < before)


def versions(code: str) -> str:
    """The versions a rule applies to, as `nnsight-lint rules` shows them: "all", "0.5+", "<0.5"."""
    module = rule(code)
    since, before = getattr(module, "SINCE", None), getattr(module, "BEFORE", None)
    shown = lambda v: f"{v[0]}.{v[1]}"  # noqa: E731
    if since and before:
        return f"{shown(since)}-<{shown(before)}"
    if since:
        return f"{shown(since)}+"
    return f"<{shown(before)}" if before else "all"


def selected(select: Iterable[str] = (), ignore: Iterable[str] = (), target: Optional[Tuple[int, int]] = None) -> List[str]:
    """Codes chosen by prefixes: `select` (all default rules when empty) minus `ignore`; an opt-in
    rule only when `select` names its full code; with `target`, only the rules that apply to it."""
    select, ignore = list(select), list(ignore)
    chosen = []
    for code in CODES:
        if any(code.startswith(p) for p in ignore):
            continue
        if code in select or (
            is_default(code) and (not select or any(code.startswith(p) for p in select))
        ):
            if target is None or applies(code, target):
                chosen.append(code)
    return chosen
