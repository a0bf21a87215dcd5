"""What many test modules share: the repo root, the two-invoke trace, and the CLI as a process."""
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
