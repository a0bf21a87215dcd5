"""The rule registry. A rule is one module with CODE, NAME, SUMMARY, a docstring that is its full
explanation (the docs page and `nnsight-lint explain` print it), and `check(model, context)`.

`CODES` is known without importing any rule (rule modules import libcst, which costs more than
a run that the pre-filter answers); `RULES` imports them on first use.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Dict, Iterable, List

CODES = ("NNL000", "NNL001")
_MODULES = {code: f"nnsight_lint.rules.{code.lower()}" for code in CODES}
_loaded: Dict[str, ModuleType] = {}


def __getattr__(name: str):
    if name == "RULES":
        if not _loaded:
            _loaded.update((code, importlib.import_module(module)) for code, module in _MODULES.items())
        return _loaded
    raise AttributeError(name)


def explanation(code: str) -> str:
    return importlib.import_module(_MODULES[code]).__doc__.strip() + "\n"


def is_known_prefix(prefix: str) -> bool:
    return any(code.startswith(prefix) for code in CODES)


def selected(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> List[str]:
    """Codes chosen by prefixes: `select` (all when empty) minus `ignore`."""
    select, ignore = list(select), list(ignore)
    return [
        code
        for code in CODES
        if (not select or any(code.startswith(p) for p in select))
        and not any(code.startswith(p) for p in ignore)
    ]
