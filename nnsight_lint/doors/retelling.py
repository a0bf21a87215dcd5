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
trace as a line of the traceback (or, for a `NameError`, in the trace that binds the missing name);
for a rule whose mistake sits before a trace and fails in it (`SURFACES = "next-trace"`), when a
line of the traceback is in the first trace after the finding.
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
_LIBRARIES = frozenset({"torch", "nnsight", "transformers"})
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
    if isinstance(error, ImportError):  # its str() is `.msg`, not its args
        error.msg = error.args[0]
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
        if not any(part in text for part in messages.RETOLD_WARNINGS):
            return False  # most warnings: nothing to lint for

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
    # The error's class and its bases, but `Exception` itself only when it is the class raised: a
    # rule that predicts a bare `Exception` (NNL503) explains that, not every error there is.
    names = {kind.__name__ for kind in type(error).__mro__
             if kind is type(error) or kind not in (Exception, BaseException, object)}
    if not names & _raised_by_rules():
        return _grad_order(error, _user_frames(error.__traceback__))
    frames = _user_frames(error.__traceback__)
    missing = _missing_name(error) if isinstance(error, NameError) else None
    lines_by_file: Dict[str, List[int]] = {}
    for path, line, _ in reversed(frames):  # innermost first
        lines_by_file.setdefault(path, []).append(line)
    raised_at = _raised_at(error.__traceback__)

    def explains(rule) -> bool:
        return bool(set(getattr(rule, "RAISES", ())) & names)

    models = _runtime_models(frames)
    for path in list(lines_by_file)[:_MAX_FILES]:
        here = raised_at if raised_at is not None and raised_at[0] == path else None
        finding = _explaining(path, lines_by_file[path], explains, missing, here, models)
        if finding is not None:
            return _told(finding, "error", type(error).__name__ if isinstance(error, NameError) else None)
    return _grad_order(error, frames) or _module_path_error(error, frames)


def _raised_by_rules() -> frozenset:
    """Every exception class name some rule predicts (`RAISES`): another error is never linted for."""
    from nnsight_lint import rules

    global _RAISED
    if _RAISED is None:
        _RAISED = frozenset(name for code in rules.CODES for name in getattr(rules.rule(code), "RAISES", ()))
    return _RAISED


_RAISED: Optional[frozenset] = None


def _raised_at(tb: Optional[TracebackType]):
    """(file, first line, first column, last line, last column) of the expression that raised,
    1-based, columns in code points, when the innermost frame of the traceback is the user's own
    code (the error came from their expression, e.g. `cfg.lr` on None, `int("x")`), else None."""
    if tb is None:
        return None
    while tb.tb_next is not None:
        # Code nnsight ran (a trace's body, on 0.8 compiled with the user's file name) raises what
        # nnsight or torch found wrong, at the user's line: not the user's own expression.
        if (tb.tb_frame.f_globals.get("__name__") or "").partition(".")[0] in _LIBRARIES:
            return None
        tb = tb.tb_next
    frame = tb.tb_frame
    module = (frame.f_globals.get("__name__") or "").partition(".")[0]
    path = frame.f_code.co_filename
    if module in _MACHINERY:
        return None
    try:
        positions = list(frame.f_code.co_positions())[tb.tb_lasti // 2]
    except (AttributeError, IndexError, TypeError):  # before Python 3.11: lines only
        return None
    line, end_line, column, end_column = positions
    if None in (line, end_line, column, end_column) or line != tb.tb_lineno:
        return None
    first, last = linecache.getline(path, line), linecache.getline(path, end_line)
    if not first or not last:
        return None
    # co_positions counts UTF-8 bytes
    return (path, line, _code_points(first, column) + 1, end_line, _code_points(last, end_column) + 1)


def _code_points(line: str, offset: int) -> int:
    return len(line.encode("utf-8")[:offset].decode("utf-8", "replace"))


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


def _explaining(path: str, lines: List[int], explains, missing: Optional[str], raised_at=None, models=None):
    """A finding in `path` whose rule `explains` the error, on one of `lines` (or naming `missing`).
    An error the user's own expression raised (`raised_at`) is explained only by a finding on that
    expression; a missing name only by a finding whose code names it, or that bound it elsewhere.
    `models`: names of the running nnsight models -> their real config (the model rules' setting)."""
    candidates = [d for d in _findings(path, models) if explains(d.rule)]
    if not candidates:
        return None
    source_lines = _findings.lines(path, models)

    def text_of(diagnostic) -> str:
        first, last = diagnostic.start, diagnostic.end
        if not 1 <= first.line <= last.line <= len(source_lines):
            return ""
        if first.line == last.line:
            return source_lines[first.line - 1][first.column - 1 : last.column - 1]
        return "\n".join([source_lines[first.line - 1][first.column - 1 :], *source_lines[first.line : last.line - 1],
                          source_lines[last.line - 1][: last.column - 1]])

    def names(diagnostic, name: Optional[str]) -> bool:
        return name is None or re.search(rf"\b{re.escape(name)}\b", text_of(diagnostic) or "") is not None

    def at_raise(diagnostic) -> bool:
        if raised_at is None:
            return True
        _, line, column, end_line, end_column = raised_at
        return (diagnostic.start.line, diagnostic.start.column) < (end_line, end_column) and (
            line, column) < (diagnostic.end.line, max(diagnostic.end.column, diagnostic.start.column + 1))

    for diagnostic in candidates:
        if diagnostic.line in lines and at_raise(diagnostic) and names(diagnostic, missing):
            return diagnostic
    if missing:  # the finding is where the name was bound (inside the trace), not where it is read
        word = re.compile(rf"\b{re.escape(missing)}\b")
        for diagnostic in candidates:
            if diagnostic.line in lines or diagnostic.line > len(source_lines):
                continue  # a finding on the failing line is about another name
            if word.search(source_lines[diagnostic.line - 1]):
                return diagnostic
    later = [d for d in candidates if getattr(d.rule, "SURFACES", "line") == "trace"]
    if missing and later:  # bound in a trace whose step never ran, read after it (NNL505)
        for first, last in _trace_spans(path):
            if any(word.search(text) for text in source_lines[first - 1:last]):
                inside = [d for d in later if first <= d.line <= last]
                if inside:
                    return inside[0]
    if raised_at is not None:
        return None  # the user's own expression raised: only a finding on it explains it
    if later:  # the mistake is one line, the error another of the same trace (NNL006)
        for first, last in _trace_spans(path):
            if any(first <= line <= last for line in lines):
                inside = [d for d in later if first <= d.line <= last]
                if inside:
                    return inside[0]
    ahead = [d for d in candidates if getattr(d.rule, "SURFACES", "line") == "next-trace"]
    if ahead:  # the mistake is before a trace, the error in it (an input moved to the meta device: NNL501)
        spans = _trace_spans(path)
        for diagnostic in ahead:
            following = [span for span in spans if span[0] > diagnostic.line]
            if following and any(following[0][0] <= line <= following[0][1] for line in lines):
                return diagnostic
    return None


class _Finding:
    """A finding and its rule module."""

    __slots__ = ("diagnostic", "rule")

    def __init__(self, diagnostic, rule) -> None:
        self.diagnostic, self.rule = diagnostic, rule

    def __getattr__(self, name):
        return getattr(self.diagnostic, name)


class _Linted:
    """Each file's findings (every rule, `# noqa` ignored, demos included), linted once per
    process for each text the file has had: an error or warning is explained without linting again."""

    def __init__(self) -> None:
        self._by_path: Dict[str, Tuple[str, list, list]] = {}  # path -> (source, findings, its lines)

    def _get(self, path: str, models: Optional[Dict[str, str]] = None):
        source = _source(path)
        if source is None:
            return None
        running = dict(models or {})
        known = self._by_path.get(path)
        # An error or warning that names no running model reuses the findings of one that did.
        if known is not None and known[0] == source and (models is None or known[3] == running):
            return known
        from nnsight_lint import rules
        from nnsight_lint.engine.lint import LintOptions, lint_source

        # The file's own settings (its trace names, its models), as `check` resolves them; the
        # versions are the ones running, whatever the project declares.
        options = LintOptions(
            select=tuple(code for code in rules.CODES if code not in ("NNL000", "NNL001")),
            target_version=_installed_version(),
            report_deliberate_errors=True,
            honour_noqa=False,
            models=running,
            transformers_version=installed_transformers(),
        )
        try:
            from dataclasses import replace

            from nnsight_lint.sources.config import settings_for
            from nnsight_lint.sources.requirements import installed_version

            own = settings_for(path).lint_options()
            # the running models' real configs win over the setting
            options = replace(options, trace_names=own.trace_names, models={**own.models, **running},
                              transformers_version=installed_version("transformers"))
        except Exception:  # noqa: BLE001  a broken pyproject.toml must not hide the error being explained
            pass
        found = [_Finding(d, rules.rule(d.code)) for d in lint_source(source, path, options)]
        known = self._by_path[path] = (source, found, source.splitlines(), running)
        return known

    def __call__(self, path: str, models: Optional[Dict[str, str]] = None) -> list:
        known = self._get(path, models)
        return [] if known is None else known[1]

    def lines(self, path: str, models: Optional[Dict[str, str]] = None) -> List[str]:
        known = self._get(path, models)
        return [] if known is None else known[2]

    def clear(self) -> None:
        self._by_path.clear()


_findings = _Linted()


def _trace_spans(path: str) -> List[Tuple[int, int]]:
    """(first, last line) of each outermost trace in the file."""
    source = _source(path)
    if source is None:
        return []
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


# -- the model rules at run time: the real model is there ------------------------------------------

_ENVOY_ATTRIBUTE = re.compile(r"'(\w+)' object \(nor its module\) has attribute '([^']*)'")
_CONFIGS: Dict[int, str] = {}  # id(config object) -> the config.json written for it
_CONFIG_DIR: List[str] = []


def installed_transformers() -> Optional[str]:
    """The installed transformers' version, from its metadata (no import)."""
    from nnsight_lint.sources.requirements import installed_version

    return installed_version("transformers")


def _model_of(value) -> Optional[object]:
    """The torch module of an nnsight model object (an Envoy), without touching its `__getattr__`."""
    if not type(value).__module__.startswith("nnsight"):
        return None
    state = getattr(value, "__dict__", None)
    module = state.get("_module") if isinstance(state, dict) else None
    config = getattr(module, "config", None) if module is not None else None
    return module if hasattr(config, "to_json_string") and getattr(config, "model_type", None) else None


def _runtime_models(frames) -> Dict[str, str]:
    """Names (`model`, `self.model`) in the failing frames bound to nnsight models -> a config.json of
    the real model's config, so the model rules judge the code against the model that ran."""
    found: Dict[str, str] = {}
    for _, _, frame in frames:
        for scope in (frame.f_locals, frame.f_globals):
            for name, value in list(scope.items()):
                module = _model_of(value)
                if module is not None:
                    found.setdefault(name, _config_file(module.config))
                elif name == "self" and isinstance(getattr(value, "__dict__", None), dict):
                    for attribute, inner in list(vars(value).items()):
                        module = _model_of(inner)
                        if module is not None:
                            found.setdefault(f"self.{attribute}", _config_file(module.config))
    return {name: path for name, path in found.items() if path}


def _config_file(config) -> Optional[str]:
    if id(config) not in _CONFIGS:
        import atexit
        import shutil
        import tempfile

        try:
            if not _CONFIG_DIR:
                _CONFIG_DIR.append(tempfile.mkdtemp(prefix="nnsight-lint-models-"))
                atexit.register(shutil.rmtree, _CONFIG_DIR[0], True)
            path = os.path.join(_CONFIG_DIR[0], f"{len(_CONFIGS)}.json")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(config.to_json_string())
        except Exception:  # noqa: BLE001 - no config file: the rules stay silent
            return None
        _CONFIGS[id(config)] = path
    return _CONFIGS[id(config)]


def _module_path_error(error: BaseException, frames) -> Optional[str]:
    """nnsight's `'Envoy' object (nor its module) has attribute 'layers'` re-told from the real model:
    the module that lacks it, its children, and for an index, the list's length (NNL401 / NNL402)."""
    match = _ENVOY_ATTRIBUTE.search(str(error)) if isinstance(error, AttributeError) else None
    if match is None or not frames:
        return None
    missing = match.group(2)
    parent, index = _failing_envoy(error), None
    if parent is None:
        parent, index = _envoy_on_line(frames[-1], missing)
    if parent is None:
        return None
    module = parent.__dict__["_module"]
    root = parent.root if isinstance(getattr(type(parent), "root", None), property) else parent
    real = root.__dict__.get("_module")
    config = getattr(real, "config", None)
    name = f"{type(real).__name__} ({getattr(config, 'model_type', '?')})"
    where = str(parent.__dict__.get("path", "") or "").partition(".")[2]
    path, line, _ = frames[-1]
    written = f"{where}.{missing}" if where else missing
    if re.fullmatch(r"-?\d+", missing) and hasattr(module, "__len__"):
        code = "NNL402"
        index = int(missing) if index is None else index
        written = f"{where}[{index}]"
        text = messages.nnl402(written, name, index, where, len(module))
    else:
        code = "NNL401"
        children = [child for child, _ in module.named_children() if not child.isdigit()]
        text = messages.nnl401(written, None, name, where, missing, children, None, raises="")
    from nnsight_lint import rules
    from nnsight_lint.doors.runtime import where as place

    said = f"{text}\n{text.detail}" if getattr(text, "detail", "") else text
    return "\n\n".join([said, messages.RETOLD_AT.format(code=code, name=rules.rule(code).NAME, where=place(path, line),
                                                         what="error"),
                         messages.EXPLAIN_POINTER.format(code=code)])


def _failing_envoy(error: BaseException):
    """The Envoy whose `__getattr__` raised (outside a trace the traceback still holds its frame)."""
    tb, found = error.__traceback__, None
    while tb is not None:
        frame = tb.tb_frame
        candidate = frame.f_locals.get("self")
        if frame.f_code.co_name == "__getattr__" and _is_envoy(candidate):
            found = candidate
        tb = tb.tb_next
    return found


def _is_envoy(value) -> bool:
    return type(value).__module__.startswith("nnsight") and isinstance(getattr(value, "__dict__", None), dict) \
        and "_module" in value.__dict__


def _envoy_on_line(frame_info, missing: str):
    """Inside a trace nnsight keeps only the user's line: find on it the chain that reaches `missing`
    and walk its prefix on the real model (attributes and integer indices only: no code runs).
    (the Envoy that lacks it, the index as written when it is an index), or (None, None)."""
    import libcst as cst

    path, line, frame = frame_info
    text = linecache.getline(path, line).strip().rstrip(":")
    try:
        tree = cst.parse_module(text + "\n")
    except Exception:  # noqa: BLE001
        return None, None
    chains = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Attribute) and node.attr.value == missing:
            chains.append((node.value, None))
        elif isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            index = _index_text(node.slice[0].slice.value)
            if index is not None:
                chains.append((node.value, index))
        stack.extend(node.children)
    for chain, index in chains:
        parent = _walk_real(chain, frame)
        if _is_envoy(parent):
            module = parent.__dict__["_module"]
            if index is None or (hasattr(module, "__len__") and not -len(module) <= index < len(module)):
                return parent, index
    return None, None


def _index_text(node) -> Optional[int]:
    import libcst as cst

    if isinstance(node, cst.Integer):
        return int(node.value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and isinstance(node.expression, cst.Integer):
        return -int(node.expression.value)
    return None


def _walk_real(node, frame):
    import libcst as cst

    if isinstance(node, cst.Name):
        for scope in (frame.f_locals, frame.f_globals):
            if node.value in scope:
                return scope[node.value]
        return None
    if isinstance(node, cst.Attribute):
        owner = _walk_real(node.value, frame)
        if not _is_envoy(owner) and not (isinstance(node.value, cst.Name) and node.value.value == "self"):
            return None
        return owner.__dict__.get(node.attr.value) if owner is not None and isinstance(getattr(owner, "__dict__", None), dict) else None
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        owner = _walk_real(node.value, frame)
        index = _index_text(node.slice[0].slice.value)
        if not _is_envoy(owner) or index is None:
            return None
        try:
            return owner[index]
        except Exception:  # noqa: BLE001
            return None
    return None
