"""What many test modules share: the repo root, the two-invoke trace, the CLI as a process, and a
check of positions against PositionProvider."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The seed's bug: two invokes, neither backward retains; the first (line 3) frees the graph.
TWO_INVOKES = """\
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
"""
TWO_INVOKES_FIXED = TWO_INVOKES.replace(".backward()\n    with", ".backward(retain_graph=True)\n    with")


def run_cli(*args, cwd=None, stdin=None, preexec_fn=None, timeout=None) -> subprocess.CompletedProcess:
    """`python -m nnsight_lint ARGS` as a real process; `stdin` is text or bytes, and stdout and
    stderr come back as the same kind. `timeout` (seconds) turns a hang into a failure."""
    return subprocess.run(
        [sys.executable, "-m", "nnsight_lint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=not isinstance(stdin, bytes),
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=preexec_fn,
        timeout=timeout,
    )


def assert_statements_place_exactly(module, text, statements):
    """`statements` bracket each top-level statement of `module` in `text`, and positions given
    them place every node as PositionProvider does."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    from nnsight_lint.engine.positions import Positions
    from nnsight_lint.engine.text import line_starts

    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert len(statements) == len(module.body)
    offsets = line_starts(text) + [len(text)]
    for statement, (first, end) in zip(module.body, statements):
        start, stop = expected[statement].start, expected[statement].end
        assert offsets[first] <= offsets[start.line - 1] + start.column
        assert offsets[stop.line - 1] + stop.column <= offsets[min(end, len(offsets) - 1)] + 1  # its newline
    positions = Positions(module, text, likely=module.body, statements=statements)
    assert positions._statements is statements  # they were taken
    for node, code_range in expected.items():
        start, stop = positions.span(node)
        assert (start.line, start.column - 1, stop.line, stop.column - 1) == (
            code_range.start.line, code_range.start.column, code_range.end.line, code_range.end.column,
        ), type(node).__name__
