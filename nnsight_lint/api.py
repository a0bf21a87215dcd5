"""Files in, results out: the one entry point every door (CLI, pre-commit, flake8, LSP) uses."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional

from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.engine import DEFAULT_OPTIONS, LintOptions, lint_source


@dataclass
class FileResult:
    path: str
    diagnostics: List[Diagnostic] = field(default_factory=list)
    error: Optional[str] = None  # the file could not be read or checked


def lint_file(path: str, options: LintOptions = DEFAULT_OPTIONS) -> FileResult:
    try:
        with open(path, "rb") as handle:
            source = handle.read()
    except OSError as error:
        return FileResult(path, error=f"cannot read: {error.strerror or error}")
    return lint_text(source, path, options)


def lint_text(source, path: str, options: LintOptions = DEFAULT_OPTIONS) -> FileResult:
    try:
        return FileResult(path, lint_source(source, path, options))
    except RecursionError:
        return FileResult(path, error="internal error: the file nests too deeply to analyse")
    except Exception as error:  # a bug of ours must not hide the other files' findings
        return FileResult(path, error=f"internal error: {type(error).__name__}: {error}")


def lint_paths(paths: Iterable[str], options: LintOptions = DEFAULT_OPTIONS) -> Iterator[FileResult]:
    for path in paths:
        yield lint_file(path, options)
