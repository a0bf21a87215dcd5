"""The rule registry. A rule is one module with CODE, NAME, SUMMARY, a docstring that is its full
explanation (the docs page and `nnsight-lint explain` print it), and `check(model, context)`."""
from __future__ import annotations

from types import ModuleType
from typing import Dict, Iterable, List

from nnsight_lint.rules import nnl000, nnl001

RULES: Dict[str, ModuleType] = {rule.CODE: rule for rule in (nnl000, nnl001)}


def explanation(code: str) -> str:
    return RULES[code].__doc__.strip() + "\n"


def selected(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> List[str]:
    """Codes chosen by prefixes: `select` (all when empty) minus `ignore`."""
    select, ignore = list(select), list(ignore)
    return [
        code
        for code in RULES
        if (not select or any(code.startswith(p) for p in select))
        and not any(code.startswith(p) for p in ignore)
    ]
