"""An nnsight error, told in the words of the rule that predicts it.

Many nnsight mistakes fail far from their cause or in nnsight's own terms: an `OutOfOrderError`
naming a tensor `id()`, a `NameError` after the trace for a value that was never saved. When such
an error escapes (to the pytest plugin, the IPython extension, or `sys.excepthook` in a script
with `nnsight_lint.runtime.install()`), the file it came from is linted on the spot, with every
rule, `# noqa` ignored and deliberate demos included, and a finding that explains it becomes the
error's first line, so the run time and the linter say the same thing. The error keeps its type,
its traceback and, after the explanation, its original text.

A finding explains an error when its rule predicts that error's class (`RAISES`) and it sits on a
line of the traceback in that file, or, for a `NameError`, on a line that names the missing name,
or, for a rule whose error surfaces elsewhere in the trace (`SURFACES = "trace"`), in the same
trace as a line of the traceback.
NNL001's freed-graph error has its own, richer path (`nnsight_lint.runtime`).

Some mistakes raise nothing: torch only warns (reading a non-leaf `.grad` outside a backward block
gives None, NNL002). A warning whose text a rule lists in `WARNS`, issued at the line of one of its
findings, is re-told the same way (`retell_warning`), once per site as Python shows warnings.
"""
from __future__ import annotations

import linecache
import os
import re
import warnings
from types import TracebackType
from typing import Dict, List, Optional, Tuple

from nnsight_lint import messages

_MARK = "_nnsight_lint_retold"
_MACHINERY = frozenset({"torch", "nnsight", "nnsight_lint", "transformers", "contextlib", "threading", "runpy"})
_GRAD_ID = re.compile(r"'(\d+)\.grad\.i\d+' was requested")
_MAX_FILES = 3
_NAME_IN_TEXT = re.compile(r"(?:local variable|name) '(\w+)'")


def retell(error: BaseException) -> bool:
    """Rewrite `error`'s message in place when a rule explains it; True when it did. Never raises."""
    if getattr(error, _MARK, False) or not error.args and not isinstance(error, NameError):
        return False
    try:
        text = _explanation(error)
    except Exception:  # noqa: BLE001  (the hook's own trouble must never hide the user's error)
        return False
    if text is None:
        return False
    original = str(error)
    error.args = (f"{text}\n\n{messages.ORIGINAL_ERROR.format(text=original)}",)
    try:
        setattr(error, _MARK, True)
    except AttributeError:
        pass
    return True


def retell_warning(shown: "warnings.WarningMessage") -> bool:
    """Rewrite a warning about to be shown when a rule explains it; True when it did. Never raises."""
    try:
        text = str(shown.message)
        if getattr(shown.message, _MARK, False) or not shown.filename or not shown.lineno:
            return False

        def explains(rule) -> bool:
            return any(part in text for part in getattr(rule, "WARNS", ()))

        finding = _explaining(shown.filename, [shown.lineno], explains, None)
        if finding is None:
            return False
        message = shown.category(f"{_told(finding, 'warning')}\n\n{messages.ORIGINAL_WARNING.format(text=text)}")
        setattr(message, _MARK, True)
        shown.message = message
        return True
    except Exception:  # noqa: BLE001  (never in the way of the warning itself)
        return False


def _explanation(error: BaseException) -> Optional[str]:
    frames = _user_frames(error.__traceback__)
    names = {kind.__name__ for kind in type(error).__mro__}
    missing = _missing_name(error) if isinstance(error, NameError) else None
    lines_by_file: Dict[str, List[int]] = {}
    for path, line, _ in reversed(frames):  # innermost first
        lines_by_file.setdefault(path, []).append(line)

    def explains(rule) -> bool:
        return bool(set(getattr(rule, "RAISES", ())) & names)

    for path in list(lines_by_file)[:_MAX_FILES]:
        finding = _explaining(path, lines_by_file[path], explains, missing)
        if finding is not None:
            return _told(finding, "error", type(error).__name__ if isinstance(error, NameError) else None)
    return _grad_order(error, frames)


def _missing_name(error: NameError) -> Optional[str]:
    """The name a NameError is about (`UnboundLocalError` sets no `.name`: read it off the text)."""
    if getattr(error, "name", None):
        return error.name
    match = _NAME_IN_TEXT.search(str(error))
    return match.group(1) if match else None


def _user_frames(tb: Optional[TracebackType]) -> List[Tuple[str, int, object]]:
    """(file, line, frame) of the traceback's frames in the user's own files, outermost first."""
    found = []
    while tb is not None:
        frame = tb.tb_frame
        module = (frame.f_globals.get("__name__") or "").partition(".")[0]
        path = frame.f_code.co_filename
        if module not in _MACHINERY and not path.startswith("<frozen"):
            found.append((path, tb.tb_lineno, frame))
        tb = tb.tb_next
    return found


def _explaining(path: str, lines: List[int], explains, missing: Optional[str]):
    """A finding in `path` whose rule `explains` the error, on one of `lines` (or naming `missing`)."""
    source = _source(path)
    if source is None:
        return None
    from nnsight_lint import rules
    from nnsight_lint.engine.lint import LintOptions, lint_source

    options = LintOptions(
        select=tuple(code for code in rules.CODES if code not in ("NNL000", "NNL001")),
        target_version=_installed_version(),
        report_deliberate_errors=True,
        honour_noqa=False,
    )
    candidates = [d for d in lint_source(source, path, options) if explains(rules.rule(d.code))]
    for diagnostic in candidates:
        if diagnostic.line in lines:
            return diagnostic
    if missing:
        word = re.compile(rf"\b{re.escape(missing)}\b")
        source_lines = source.splitlines()
        for diagnostic in candidates:
            if diagnostic.line <= len(source_lines) and word.search(source_lines[diagnostic.line - 1]):
                return diagnostic
    later = [d for d in candidates if getattr(rules.rule(d.code), "SURFACES", "line") == "trace"]
    if later:  # the mistake is one line, the error another of the same trace (NNL006)
        for first, last in _trace_spans(source, path):
            if any(first <= line <= last for line in lines):
                inside = [d for d in later if first <= d.line <= last]
                if inside:
                    return inside[0]
    return None


def _trace_spans(source: str, path: str) -> List[Tuple[int, int]]:
    """(first, last line) of each outermost trace in the file."""
    from nnsight_lint.analysis import build_file_model
    from nnsight_lint.diagnostics import Diagnostic
    from nnsight_lint.engine.lint import parse
    from nnsight_lint.engine.positions import Positions

    module = parse(source, path)
    if isinstance(module, Diagnostic):
        return []
    outermost = [trace.node for trace in build_file_model(module).traces if trace.parent is None]
    positions = Positions(module)
    return [(positions.span(node)[0].line, positions.span(node)[1].line) for node in outermost]


def _told(diagnostic, what: str, raised: Optional[str] = None) -> str:
    """The finding told as the run-time `what` ("error" or "warning"): its message and story, where
    it is (a Jupyter cell named as IPython names it), and the explain pointer. `raised`: the class of
    the NameError raised, named instead of the finding's generic `NameError` (an
    `UnboundLocalError` is one when the name is a function's local)."""
    from nnsight_lint import rules
    from nnsight_lint.doors.runtime import where

    said = f"{diagnostic.message}\n{diagnostic.detail}" if diagnostic.detail else diagnostic.message
    if raised is not None and raised != "NameError":
        said = said.replace("(NameError)", f"({raised})")
    name = rules.rule(diagnostic.code).NAME
    return "\n\n".join(
        [
            said,
            messages.RETOLD_AT.format(code=diagnostic.code, name=name, where=where(diagnostic.path, diagnostic.line), what=what),
            messages.EXPLAIN_POINTER.format(code=diagnostic.code),
        ]
    )


def _grad_order(error: BaseException, frames) -> Optional[str]:
    """nnsight names a gradient read out of order only by the tensor's `id()`: find the variable in
    the failing frame (the linter could not decide the order, e.g. a computed index)."""
    match = _GRAD_ID.search(str(error))
    if match is None or not frames:
        return None
    path, line, frame = frames[-1]
    ident = int(match.group(1))
    for scope in (frame.f_locals, frame.f_globals):
        for name, value in scope.items():
            if id(value) == ident:
                return "\n\n".join(
                    [messages.grad_order_runtime(name, line), messages.EXPLAIN_POINTER.format(code="NNL003")]
                )
    return "\n\n".join([messages.grad_order_runtime(None, line), messages.EXPLAIN_POINTER.format(code="NNL003")])


def _source(path: str) -> Optional[str]:
    lines = linecache.getlines(path)
    if lines:
        return "".join(lines)
    if os.path.isfile(path):
        try:
            with open(path, "rb") as handle:
                return handle.read().decode("utf-8", "replace")
        except OSError:
            return None
    return None


def _installed_version() -> Tuple[int, int]:
    from nnsight_lint.knowledge import versions

    try:
        import nnsight

        return versions.parse(".".join(nnsight.__version__.split(".")[:2]))
    except Exception:  # noqa: BLE001
        return versions.NEWEST
