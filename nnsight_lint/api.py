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


@dataclass
class FixResult:
    path: str
    before: str = ""
    after: str = ""
    data: bytes = b""  # `after`, encoded as the file was
    fixed: int = 0
    remaining: List[Diagnostic] = field(default_factory=list)
    error: Optional[str] = None

    @property
    def changed(self) -> bool:
        return self.after != self.before


def fix_bytes(source: bytes, path: str, options: LintOptions = DEFAULT_OPTIONS, unsafe: bool = False) -> FixResult:
    from nnsight_lint.fixing import FixError, decode, fix_text

    try:
        text, encoding = decode(source)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return FixResult(path, remaining=lint_source(source, path, options))
    try:
        outcome = fix_text(text, lambda t: lint_source(t, path, options), unsafe)
        data = outcome.text.encode(encoding) if outcome.changed else source
    except FixError as error:
        return FixResult(path, text, text, source, error=f"internal error: {error}; the file was left unchanged")
    except UnicodeEncodeError as error:
        return FixResult(path, text, text, source, error=f"cannot write back as {encoding}: {error.reason}")
    except Exception as error:
        return FixResult(path, text, text, source, error=f"internal error: {type(error).__name__}: {error}")
    return FixResult(path, text, outcome.text, data, outcome.fixed, outcome.remaining)


def fix_file(path: str, options: LintOptions = DEFAULT_OPTIONS, unsafe: bool = False, write: bool = True) -> FixResult:
    from nnsight_lint.fixing import write_atomically

    try:
        with open(path, "rb") as handle:
            source = handle.read()
    except OSError as error:
        return FixResult(path, error=f"cannot read: {error.strerror or error}")
    result = fix_bytes(source, path, options, unsafe)
    if write and result.error is None and result.data != source:
        try:
            write_atomically(path, result.data)
        except OSError as error:
            result.error = f"cannot write: {error.strerror or error}"
    return result
