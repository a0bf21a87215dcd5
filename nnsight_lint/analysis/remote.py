"""Remote (NDIF) runs as nnsight 0.8 builds their request.

`model.trace(..., remote=True)` and `model.session(remote=True)` do not run the block here: the
remote backend serialises it (`nnsight.schema.request.RequestModel.serialize`): the block's source,
plus every global or local name the block reads (`serialization.code_reduce`: any `Load` of a
name, wherever it sits in the block), pickled with cloudpickle. An object cloudpickle cannot pickle
fails the request before it is sent. `remote="local"` runs the same serialisation and runs the
block here (nnsight's dry run of the remote path).

Local classes and functions of the user's own files are not such objects on 0.8: the backend
registers the project's modules to be pickled by value (`nnsight.ndif.pull_env`) and pickles a
function by its source.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import libcst as cst

from nnsight_lint.analysis.flow import last_binding
from nnsight_lint.analysis.model import Event, EventKind, FileModel, Where
from nnsight_lint.analysis.scope import dotted_name

# Calls whose result cloudpickle refuses: (qualified name, what it is).
UNPICKLABLE_CALLS = {
    "threading.Lock": "a lock", "threading.RLock": "a lock", "threading.Condition": "a condition variable",
    "threading.Semaphore": "a semaphore", "threading.Event": "an event",
    "multiprocessing.Lock": "a lock", "socket.socket": "a socket", "sqlite3.connect": "a database connection",
}
_WRITE_MODES = frozenset("wax+")


@dataclass
class RemoteBlock:
    """A `with` block nnsight sends to a remote server: a trace, or a session with its traces."""

    node: cst.With
    call: cst.Call
    remote: str  # "True", "local", or the host string
    start: int
    end: int


def remote_value(call: Optional[cst.Call], where: Where) -> Optional[str]:
    """`remote=` of a trace or session call when the source fixes it to a run elsewhere: "True",
    "local" or a host; None when absent, False, or not known (`remote=REMOTE` bound more than once)."""
    if call is None:
        return None
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value != "remote":
            continue
        value = arg.value
        if type(value) is cst.Name and value.value not in ("True", "False", "None"):
            value = where.scope.literal(value.value)
        if type(value) is cst.Name and value.value == "True":
            return "True"
        if type(value) is cst.SimpleString and value.evaluated_value:
            return value.evaluated_value
        return None
    return None


def remote_blocks(model: FileModel) -> List[RemoteBlock]:
    """The outermost remote blocks: remote sessions, and remote traces outside any session."""
    blocks = []
    for session in model.sessions:
        call = next((item.item for item in session.node.items if type(item.item) is cst.Call), None)
        first = next((e for e in model.events if e.order > session.start), None)
        where = first.where if first is not None else None
        remote = remote_value(call, where) if where is not None else None
        if remote is not None:
            blocks.append(RemoteBlock(session.node, call, remote, session.start, session.end))
    for trace in model.traces:
        if trace.parent is None and trace.session is None and trace.where is not None:
            remote = remote_value(trace.call, trace.where)
            if remote is not None:
                blocks.append(RemoteBlock(trace.node, trace.call, remote, trace.start, trace.end))
    return blocks


def shipped_reads(model: FileModel, block: RemoteBlock) -> List[Event]:
    """The name reads inside the block (each is shipped when the name exists outside it)."""
    return [e for e in model.events if e.kind is EventKind.READ and block.start < e.order < block.end]


def unpicklable_binding(model: FileModel, name: str, before: int) -> Optional[str]:
    """What a name is bound to before `before` when cloudpickle cannot pickle it ("a file opened for
    writing", "a generator", "a lock"), from its last binding outside a trace; None otherwise."""
    binding = last_binding(model, name, before)
    if binding is None or binding.where.trace is not None or binding.where.function is not None:
        return None
    value = binding.value
    if type(value) is cst.GeneratorExp:
        return "a generator"
    if type(value) is cst.Call:
        callee = binding.where.scope.qualified(value.func) or dotted_name(value.func)
        if callee in ("open", "io.open", "builtins.open"):
            return "a file opened for writing" if _writes(value) else None
        return UNPICKLABLE_CALLS.get(callee or "")
    return None


def _writes(call: cst.Call) -> bool:
    mode = None
    positional = [a for a in call.args if a.keyword is None]
    if len(positional) > 1:
        mode = positional[1].value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "mode":
            mode = arg.value
    return type(mode) is cst.SimpleString and bool(_WRITE_MODES & set(str(mode.evaluated_value)))
