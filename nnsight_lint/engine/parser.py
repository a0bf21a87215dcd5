"""libcst's parser, without the checks libcst runs on every node it builds.

A libcst node checks its fields as it is built (`CSTNode.__post_init__` calls `_validate`): for a
tree a program puts together, that catches a node no source could spell. A tree the parser builds
from source passes every check by construction, and the checks cost a tenth to a sixth of the
parse (benchmarks/RESULTS.md, seventh session); libcst's own comment there says as much ("avoid validating the tree
when parsing a file"). So while a parse runs, nodes are built unchecked, and the check is back
the moment no parse is running.

While it is off it is off for the process: a node another thread builds meanwhile goes unchecked
too. Only an invalid node would notice (it is not refused), and the linter builds none: a fix is
text, re-parsed before it is kept (`fixing`).
"""
from __future__ import annotations

import threading
from typing import Union

_lock = threading.Lock()
_running = 0  # parses under way, in every thread
_checks = None  # libcst's own __post_init__, while a parse has it replaced


def parse_module(source: Union[str, bytes]):
    """`libcst.parse_module(source)`: the same tree, built without the per-node checks."""
    import libcst as cst

    global _running, _checks
    node = cst.CSTNode
    if "__post_init__" not in node.__dict__:  # a libcst that checks nodes some other way
        return cst.parse_module(source)
    with _lock:
        _running += 1
        if _running == 1:
            _checks, node.__post_init__ = node.__dict__["__post_init__"], _unchecked
    try:
        return cst.parse_module(source)
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                node.__post_init__, _checks = _checks, None


def _unchecked(self) -> None:
    pass
