"""The runtime hook: torch's freed-graph error inside an nnsight trace, told as NNL001.

Every invoke of one `model.trace()` is batched into a single forward, so all invokes share one
autograd graph. The first backward without `retain_graph=True` frees it; a later backward of the
same trace then dies with torch's "Trying to backward through the graph a second time". With the
hook installed, that error (and only that one, and only when nnsight intervention code ran the
backward) becomes a `RuntimeError` whose first line is the linter's NNL001 message, chained `from`
torch's error. Everything else passes through untouched.

Patch points: the module attributes `torch.autograd.backward` (reached by both `x.backward()` and
`with x.backward():`) and `torch.autograd.grad`. `torch.Tensor.backward` is never wrapped: nnsight
finds the `with` block of `with x.backward():` a fixed number of frames up, and an extra frame
breaks that.

The stack is looked at on two paths only: a successful backward that freed the graph (to remember
where it ran) and the freed-graph error (to find the failing call and whether nnsight ran it).
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import os
import sys
import threading
import warnings
import weakref
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, NamedTuple, Optional

from nnsight_lint import messages

TORCH_TEXT = "Trying to backward through the graph a second time"

# Frames of these top-level packages are machinery, not the user's call site.
_MACHINERY = frozenset({"torch", "nnsight", "nnsight_lint", "contextlib", "functools", "threading"})
_MAX_DEPTH = 400

_originals: dict[str, Callable] = {}  # "backward"/"grad" -> the torch function we replaced
_last: _Freed | None = None  # the last backward that ran nnsight code and freed its graph


class _Site(NamedTuple):
    """Where a backward ran: the user's file and line, whether nnsight ran it, and its trace."""

    path: str | None
    line: int | None
    in_nnsight: bool
    trace: Any  # a weakref to an object unique to the trace, or None when not identifiable


class _Freed(NamedTuple):
    call: str  # as the linter writes the callee: "backward()" or "torch.autograd.grad()"
    site: _Site


# --- install / uninstall ------------------------------------------------------------------------


def install(preflight: Optional[bool] = None) -> None:
    """Patch `torch.autograd.backward` and `torch.autograd.grad`, and re-tell the errors other rules
    predict when they escape a script (`sys.excepthook`); calling it again does nothing.

    `preflight` (default: on, unless the environment says `NNSIGHT_LINT_PREFLIGHT=0`): lint a
    remote trace's or session's block before nnsight submits it, and refuse it on findings."""
    if _originals:
        return
    try:
        import nnsight  # noqa: F401  (the hook only makes sense with nnsight; fail early)
        import torch
    except ImportError as err:
        raise ImportError(messages.RUNTIME_MISSING_EXTRA) from err
    autograd = torch.autograd
    _originals["backward"] = autograd.backward
    _originals["grad"] = autograd.grad
    autograd.backward = _wrap(autograd.backward, "backward()")
    autograd.grad = _wrap(autograd.grad, "torch.autograd.grad()")
    _originals["excepthook"] = sys.excepthook
    sys.excepthook = _excepthook
    _originals["showwarnmsg"] = warnings._showwarnmsg  # what every shown or recorded warning goes through
    warnings._showwarnmsg = _showwarnmsg
    if preflight is None:
        preflight = os.environ.get("NNSIGHT_LINT_PREFLIGHT", "1").strip().lower() not in ("0", "false", "no", "off")
    if preflight:
        _install_preflight()


def uninstall() -> None:
    """Put back exactly the functions `install()` replaced (those still ours; a no-op if none)."""
    global _last
    if not _originals:
        return
    import torch

    excepthook = _originals.pop("excepthook", None)
    if excepthook is not None and sys.excepthook is _excepthook:
        sys.excepthook = excepthook
    _uninstall_preflight()
    showwarnmsg = _originals.pop("showwarnmsg", None)
    if showwarnmsg is not None and warnings._showwarnmsg is _showwarnmsg:
        warnings._showwarnmsg = showwarnmsg
    for name, original in _originals.items():
        current = getattr(torch.autograd, name)
        if getattr(current, "__wrapped__", None) is original:
            setattr(torch.autograd, name, original)
    _originals.clear()
    _last = None


def is_installed() -> bool:
    return bool(_originals)


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """Install the hook for the `with` block; leave it installed if it already was."""
    was = is_installed()
    install()
    try:
        yield
    finally:
        if not was:
            uninstall()


def _excepthook(kind, error, traceback) -> None:
    """An uncaught error that a rule explains is printed in the rule's words (`retelling`)."""
    from nnsight_lint.doors.retelling import retell

    retell(error)
    (_originals.get("excepthook") or sys.__excepthook__)(kind, error, traceback)


def _showwarnmsg(shown) -> None:
    """A warning a rule explains (torch's non-leaf `.grad` warning: NNL002) is shown in its words."""
    from nnsight_lint.doors.retelling import retell_warning

    retell_warning(shown)
    (_originals.get("showwarnmsg") or warnings._showwarnmsg_impl)(shown)


# --- the wrapper --------------------------------------------------------------------------------


def _wrap(original: Callable, call: str) -> Callable:
    params = list(inspect.signature(original).parameters)
    retain_at = params.index("retain_graph")
    create_at = params.index("create_graph")

    def retains(args: tuple, kwargs: dict) -> bool:
        retain = kwargs.get("retain_graph", args[retain_at] if len(args) > retain_at else None)
        if retain is None:  # torch's default: retain_graph follows create_graph
            retain = kwargs.get("create_graph", args[create_at] if len(args) > create_at else False)
        return bool(retain)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        global _last
        try:
            result = original(*args, **kwargs)
        except RuntimeError as err:
            if not str(err).startswith(TORCH_TEXT):
                raise
            translated = _translate(err, retains(args, kwargs), sys._getframe(1))
            if translated is None:
                raise
            raise translated from err
        if not retains(args, kwargs):
            site = _site(sys._getframe(1))
            if site.in_nnsight:
                _last = _Freed(call, site)
        return result

    return wrapper


def _translate(err: RuntimeError, retaining: bool, frame: FrameType) -> RuntimeError | None:
    """Our RuntimeError for torch's `err`, or None to let `err` through unchanged."""
    try:
        site = _site(frame)
        if not site.in_nnsight:
            return None
        freed = _last if _last is not None and _same_trace(_last.site, site) else None
        text = explain(str(err), site, freed, retaining)
    except Exception:  # noqa: BLE001  (the hook's own trouble must never hide torch's error)
        return None
    context = err.__context__  # nnsight 0.8: its internal "found no `with` block" probe
    if context is not None and type(context).__module__.partition(".")[0] == "nnsight":
        err.__suppress_context__ = True
    return RuntimeError(text)


def explain(torch_text: str, failing: _Site, freed: _Freed | None, retaining: bool) -> str:
    """The full NNL001 run-time message; its first line is the linter's NNL001 message."""
    call = freed.call if freed is not None else "backward()"
    in_loop = freed is not None and freed.site[:2] == failing[:2]  # same file and line
    freed_at = f" (at {_where(freed.site)})" if freed is not None and freed.site.line else ""
    advice = messages.NNL001_RUNTIME_ALREADY_RETAINING if retaining else messages.NNL001_RUNTIME_FIX
    return "\n\n".join(
        [
            messages.nnl001(call, failing.line or 0, in_loop=in_loop),
            messages.NNL001_RUNTIME_CAUSE.format(freed_at=freed_at),
            advice.format(freed_at=freed_at),
            messages.EXPLAIN_POINTER.format(code="NNL001"),
            messages.TORCH_ORIGINAL.format(text=torch_text),
        ]
    )


def _where(site: _Site) -> str:
    return where(site.path, site.line)


def where(path: str, line: int) -> str:
    """The place as the traceback around it names it: `Cell In[3], line 5` for code of an IPython
    or Jupyter cell (whose file is `<ipython-input-3-...>` or a kernel temp path), else `path:line`.
    Every re-telling names its place through here."""
    cell = _ipython_cell(path)
    if cell is not None:
        return f"{cell}, line {line}"
    return f"{path}:{line}"


def _ipython_cell(path: str) -> Optional[str]:
    """`Cell In[3]` when `path` is the code name of a cell of the running IPython, else None."""
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None
        label = shell.compile.format_code_name(path) if shell is not None else None
    except Exception:  # noqa: BLE001  (an IPython without this API: fall back to the path)
        return None
    return f"{label[0]} {label[1]}" if label else None


def _same_trace(a: _Site, b: _Site) -> bool:
    if a.trace is None or b.trace is None:
        return True  # not identifiable on this release: trust the most recent freeing call
    return a.trace() is not None and a.trace() is b.trace()


# --- reading the stack --------------------------------------------------------------------------


def _site(frame: FrameType | None) -> _Site:
    """The innermost user frame's file and line, and whether nnsight intervention code is below.

    nnsight 0.5-0.7 run intervention code compiled as "<nnsight ...>" (lines counted from the
    block, mapped back here the way nnsight maps its own tracebacks); 0.8 compiles it with the
    user's file name and lines. Every release runs it under `nnsight.intervention.interleaver`.
    """
    path = line = trace = None
    in_nnsight = False
    depth = 0
    while frame is not None and depth < _MAX_DEPTH:
        filename = frame.f_code.co_filename
        generated = filename.startswith("<nnsight ")  # not "<nnsight-console>"
        module = frame.f_globals.get("__name__") or ""
        if generated or module == "nnsight.intervention.interleaver":
            in_nnsight = True
            if trace is None:
                trace = _trace_of(frame, generated)
        if line is None:
            if generated:  # unmappable: still better than a frame of nnsight's worker thread
                path, line = _unmap(frame) or (filename, frame.f_lineno)
            elif module.partition(".")[0] not in _MACHINERY:
                path, line = filename, frame.f_lineno
        if line is not None and trace is not None:
            break
        frame = frame.f_back
        depth += 1
    return _Site(path, line, in_nnsight, trace)


def _unmap(frame: FrameType) -> tuple[str, int] | None:
    """File and line in the user's source of a frame nnsight 0.5-0.7 compiled as "<nnsight N>"."""
    infos = []
    info = frame.f_locals.get("__nnsight_tracing_info__")
    while info is not None and len(infos) < 64:
        infos.append(info)
        outer = getattr(info, "frame", None)
        if not _is_generated(outer):
            break
        info = outer.f_locals.get("__nnsight_tracing_info__")
    offset, path = 0, None
    for info in reversed(infos):  # outermost (the trace in the user's file) first
        outer = info.frame
        if isinstance(outer, FrameType) and not _is_generated(outer):
            offset, path = outer.f_code.co_firstlineno - 1, outer.f_code.co_filename
        offset += info.start_line - 1
    return (path, frame.f_lineno + offset) if path is not None else None


def _trace_of(frame: FrameType, generated: bool) -> Any:
    """A weakref to an object that lives exactly as long as the frame's trace, if one is found."""
    if generated:  # 0.5-0.7: the outermost tracing info of the block is the trace's own
        info, outermost = frame.f_locals.get("__nnsight_tracing_info__"), None
        while info is not None:
            outermost = info
            outer = getattr(info, "frame", None)
            if not _is_generated(outer):
                break
            info = outer.f_locals.get("__nnsight_tracing_info__")
        owner = outermost
    else:  # 0.8: the worker's interleaver holds the trace's batcher while the trace runs
        mediator = frame.f_locals.get("self")
        owner = getattr(getattr(mediator, "interleaver", None), "batcher", None)
    try:
        return weakref.ref(owner) if owner is not None else None
    except TypeError:
        return None


def _is_generated(frame: Any) -> bool:
    return isinstance(frame, FrameType) and frame.f_code.co_filename.startswith("<nnsight")


# --- remote pre-flight --------------------------------------------------------------------------
#
# A remote trace or session costs a place in NDIF's queue; a mistake the linter can see should
# not. nnsight hands a remote block to its backend (`RemoteBackend.__call__`, and for
# `remote="local"` its dry run `LocalSimulationBackend.__call__`) before serialising it: there the
# block's file is linted and the findings inside the block refuse the run.

_PREFLIGHT_BACKENDS = (
    ("nnsight.intervention.backends.remote", "RemoteBackend"),
    ("nnsight.intervention.backends.remote", "AsyncRemoteBackend"),
    ("nnsight.intervention.backends.local", "LocalSimulationBackend"),
)
_preflight_patched: list = []  # (class, the __call__ we replaced)
_preflight_state = threading.local()


class PreflightRefused(RuntimeError):
    """A remote block the linter has findings in, refused before nnsight submitted it."""

    def __init__(self, text: str, findings: list) -> None:
        super().__init__(text)
        self.findings = findings


@contextlib.contextmanager
def preflight_off() -> Iterator[None]:
    """Submit the remote blocks opened inside this `with` without the pre-flight."""
    depth = getattr(_preflight_state, "off", 0)
    _preflight_state.off = depth + 1
    try:
        yield
    finally:
        _preflight_state.off = depth


def preflight_installed() -> bool:
    return bool(_preflight_patched)


def _install_preflight() -> None:
    import importlib

    for module_name, class_name in _PREFLIGHT_BACKENDS:
        try:
            backend = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError):  # an nnsight without this backend
            continue
        original = backend.__dict__.get("__call__")
        if original is None:
            continue
        backend.__call__ = _preflighted(original)
        _preflight_patched.append((backend, original))


def _uninstall_preflight() -> None:
    while _preflight_patched:
        backend, original = _preflight_patched.pop()
        if getattr(backend.__dict__.get("__call__"), "__wrapped__", None) is original:
            backend.__call__ = original


def _preflighted(original: Callable) -> Callable:
    @functools.wraps(original)
    def __call__(self, tracer=None, *args: Any, **kwargs: Any) -> Any:
        if tracer is not None and not getattr(_preflight_state, "off", 0):
            refused = check_remote_block(tracer)
            if refused is not None:
                raise refused
        return original(self, tracer, *args, **kwargs)

    return __call__


def check_remote_block(tracer: Any) -> Optional[PreflightRefused]:
    """The refusal for a remote tracer's block (None: nothing found, or the block cannot be read).
    The pre-flight's own trouble never stops a run."""
    try:
        from nnsight_lint.engine.lint import LintOptions, lint_source
        from nnsight_lint.knowledge import versions

        node, info = getattr(tracer, "node", None), getattr(tracer, "info", None)
        frame = getattr(info, "frame", None)
        if node is None or not isinstance(frame, FrameType):
            return None
        path = frame.f_code.co_filename
        source = type(tracer).source(path) if hasattr(type(tracer), "source") else ""
        if not source:
            return None
        import nnsight

        options = LintOptions(target_version=versions.parse(nnsight.__version__))
        first, last = node.lineno, getattr(node, "end_lineno", None) or node.lineno
        found = [d for d in lint_source(source, path, options) if first <= d.start.line <= last]
    except Exception:  # noqa: BLE001
        return None
    if not found:
        return None
    kind = "session" if any(getattr(getattr(getattr(item, "context_expr", None), "func", None), "attr", "") == "session"
                            for item in getattr(node, "items", ())) else "trace"
    lines = "\n".join(f"  {_where(_Site(path, d.start.line, False, None))}: {d.code} {d.message}" for d in found)
    text = messages.PREFLIGHT_REFUSED.format(kind=kind, where=_where(_Site(path, first, False, None)),
                                             count=len(found), findings=lines)
    return PreflightRefused(text, found)
