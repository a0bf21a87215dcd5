"""Output formats. Each takes the diagnostics of a run and returns the text to print."""
from __future__ import annotations

from typing import List

from nnsight_lint.diagnostics import Diagnostic


def location(diagnostic: Diagnostic) -> str:
    cell = f"cell {diagnostic.cell}:" if diagnostic.cell is not None else ""
    return f"{diagnostic.path}:{cell}{diagnostic.line}:{diagnostic.column}"


def concise(diagnostics: List[Diagnostic]) -> str:
    return "".join(
        f"{location(d)}: {d.code}{' [*]' if d.fix else ''} {d.message}\n" for d in diagnostics
    )


FORMATS = {"concise": concise}
