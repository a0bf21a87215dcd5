"""Docs and notebooks show nnsight mistakes on purpose and say so next to the code: such findings
are not reported by default (`report-deliberate-errors` reports them)."""
from __future__ import annotations

import json

from nnsight_lint.doors.api import lint_file
from nnsight_lint.engine.lint import LintOptions
from tests.support import TWO_INVOKES, run_cli

UNSAVED = 'with model.trace("hello world"):\n    output = model.output\n\nprint(output)\n'


def notebook(cells) -> str:
    return json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {"language_info": {"name": "python"}},
        "cells": [{"cell_type": kind, "metadata": {}, "source": text, **({"outputs": [], "execution_count": None}
                   if kind == "code" else {})} for kind, text in cells],
    })


def codes(path, **options):
    return [(d.cell, d.line, d.code) for d in lint_file(str(path), LintOptions(**options)).diagnostics]


def test_a_cell_whose_markdown_says_it_fails_is_a_demo(tmp_path):
    shown = tmp_path / "walkthrough.ipynb"
    shown.write_text(notebook([("markdown", "Let's try accessing the model's output:"), ("code", UNSAVED),
                               ("markdown", 'Oh no, an error! "Accessing value before it\'s been set."')]))
    assert codes(shown) == []
    assert codes(shown, report_deliberate_errors=True) == [(1, 2, "NNL101")]


def test_markdown_that_only_mentions_an_error_metric_is_not(tmp_path):
    plain = tmp_path / "metrics.ipynb"
    plain.write_text(notebook([("code", UNSAVED), ("markdown", "We compute a reconstruction error next.")]))
    assert codes(plain) == [(1, 2, "NNL101")]


def test_a_percent_script_cell_said_to_fail_is_a_demo(tmp_path):
    script = tmp_path / "walkthrough.py"
    script.write_text("# %%\n" + UNSAVED + "\n# %% [markdown]\n# Oh no, an error!\n\n# %%\nx = 1\n")
    assert codes(script) == []
    assert codes(script, report_deliberate_errors=True) == [(None, 3, "NNL101")]
    quiet = run_cli("check", "--no-cache", str(script))
    assert quiet.returncode == 0, quiet.stdout
    loud = run_cli("check", "--no-cache", "--report-deliberate-errors", str(script))
    assert loud.returncode == 1 and "NNL101" in loud.stdout


def test_fix_leaves_a_demo_cell_alone(tmp_path):
    shown = tmp_path / "walkthrough.ipynb"
    shown.write_text(notebook([("code", TWO_INVOKES), ("markdown", "This fails: the graph is freed.")]))
    before = shown.read_bytes()
    done = run_cli("check", "--no-cache", "--fix", str(shown))
    assert done.returncode == 0 and shown.read_bytes() == before
