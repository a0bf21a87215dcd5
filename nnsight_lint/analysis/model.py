"""The small model of a file that rules read: its traces and the backward calls each one runs.

The builder (`builder.py`) produces it from a libcst tree; rules never walk the tree themselves
for these facts. Everything here is derived once per file.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import FrozenSet, List, Optional, Tuple

import libcst as cst


class Retains(enum.Enum):
    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"  # computed at run time (`retain_graph=i < n - 1`, unknown **kwargs)


class CallKind(enum.Enum):
    TENSOR_BACKWARD = "backward()"
    AUTOGRAD_BACKWARD = "torch.autograd.backward()"
    AUTOGRAD_GRAD = "torch.autograd.grad()"

    @property
    def retain_position(self) -> int:
        """Index of `retain_graph` among the positional parameters."""
        return {"backward()": 1, "torch.autograd.backward()": 2, "torch.autograd.grad()": 3}[self.value]

    @property
    def loss_keyword(self) -> str:
        return {"backward()": "", "torch.autograd.backward()": "tensors", "torch.autograd.grad()": "outputs"}[
            self.value
        ]


@dataclass(frozen=True)
class Origin:
    """Where a tensor's autograd graph comes from.

    `TRACE` is the graph of the trace's batched forward; a named origin is a tensor bound in the
    trace (a non-leaf node two losses may share, or a requires-grad leaf, which frees nothing).
    `loops` are the loops (within the trace) the binding sits in: a fresh tensor every iteration.
    """

    name: str
    ident: int = 0
    leaf: bool = False
    loops: Tuple[int, ...] = field(default=(), compare=False, hash=False)


TRACE = Origin("<trace forward>")


@dataclass(frozen=True)
class ModuleAccess:
    """`<model>.<path>.output` (or `.input`): the point in the forward an invoke waits for."""

    path: Tuple[object, ...]  # attribute names and integer indices; "?" where not static
    kind: str  # "input" or "output"

    def __str__(self) -> str:
        text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)
        return f"model{text}.{self.kind}"


@dataclass
class Retention:
    """How a call decides `retain_graph`, and the node a fix rewrites to `True` (None: add a keyword)."""

    retains: Retains
    value_node: Optional[cst.BaseExpression] = None


@dataclass
class BackwardCall:
    """One run of a backward-like call inside a trace (a helper called twice gives two)."""

    call: cst.Call
    name: cst.Name  # the `backward` / `grad` name: where findings point
    kind: CallKind
    retention: Retention
    origins: FrozenSet[Origin]
    invoke: int  # which invoke of the trace runs it, in source order
    order: int  # position in the walk of the trace: source order within an invoke
    waits_for: Optional[ModuleAccess]  # the last module its invoke reached before the call
    branches: Tuple[Tuple[int, int], ...]  # (branching statement, arm) pairs around the call
    loops: Tuple[int, ...]  # loops within the trace around the call

    @property
    def retains(self) -> Retains:
        return self.retention.retains

    def shared_origins(self, other: "BackwardCall") -> FrozenSet[Origin]:
        return frozenset(o for o in self.origins & other.origins if not o.leaf)

    def excludes(self, other: "BackwardCall") -> bool:
        """True when the two calls sit in different arms of one if/elif/else, try/except or match."""
        arms = dict(self.branches)
        return any(stmt in arms and arms[stmt] != arm for stmt, arm in other.branches)

    def repeats_in_loop(self) -> bool:
        """A loop within the trace runs this call again on a graph made outside that loop."""
        return any(
            loop not in origin.loops for loop in self.loops for origin in self.origins if not origin.leaf
        )


@dataclass
class Trace:
    node: cst.With
    backwards: List[BackwardCall] = field(default_factory=list)


@dataclass
class FileModel:
    module: cst.Module
    traces: List[Trace] = field(default_factory=list)
