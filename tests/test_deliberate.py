"""Docs and notebooks show nnsight mistakes on purpose and say so next to the code: such findings
are not reported by default (`report-deliberate-errors` reports them)."""
from __future__ import annotations

import json

from nnsight_lint.doors.api import lint_file
from nnsight_lint.engine.lint import LintOptions, lint_source
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


def test_the_cell_right_after_markdown_that_says_the_next_cell_fails_is_a_demo(tmp_path):
    shown = tmp_path / "walkthrough.ipynb"
    shown.write_text(notebook([("code", UNSAVED), ("markdown", "The next cell fails on purpose:"), ("code", UNSAVED)]))
    # The cell BEFORE the markdown is no demo: it is reported; the one after is not.
    assert codes(shown) == [(1, 2, "NNL101")]
    assert codes(shown, report_deliberate_errors=True) == [(1, 2, "NNL101"), (2, 2, "NNL101")]


def test_markdown_after_a_cell_hides_nothing(tmp_path):
    after = tmp_path / "after.ipynb"
    after.write_text(notebook([("markdown", "Let's try accessing the model's output:"), ("code", UNSAVED),
                               ("markdown", 'Oh no, an error! "Accessing value before it\'s been set."')]))
    assert codes(after) == [(1, 2, "NNL101")]


def test_markdown_that_only_mentions_an_error_metric_is_not(tmp_path):
    plain = tmp_path / "metrics.ipynb"
    plain.write_text(notebook([("markdown", "We compute a reconstruction error next."), ("code", UNSAVED)]))
    assert codes(plain) == [(1, 2, "NNL101")]


def test_a_percent_script_cell_said_to_fail_is_a_demo(tmp_path):
    script = tmp_path / "walkthrough.py"
    script.write_text("# %%\n" + UNSAVED + "\n# %% [markdown]\n# The next cell fails on purpose.\n\n# %%\n" + UNSAVED)
    assert codes(script) == [(None, 3, "NNL101")]  # the cell before the markdown is reported
    assert codes(script, report_deliberate_errors=True) == [(None, 3, "NNL101"), (None, 12, "NNL101")]
    quiet = run_cli("check", "--no-cache", str(script))
    assert quiet.returncode == 1 and quiet.stdout.count("NNL101") == 1, quiet.stdout
    assert "1 finding in deliberate error demos not shown: --report-deliberate-errors" in quiet.stderr
    loud = run_cli("check", "--no-cache", "--report-deliberate-errors", str(script))
    assert loud.returncode == 1 and loud.stdout.count("NNL101") == 2 and "not shown" not in loud.stderr


def test_fix_leaves_a_demo_cell_alone(tmp_path):
    shown = tmp_path / "walkthrough.ipynb"
    shown.write_text(notebook([("markdown", "The following cell raises a RuntimeError:"), ("code", TWO_INVOKES)]))
    before = shown.read_bytes()
    done = run_cli("check", "--no-cache", "--fix", str(shown))
    assert done.returncode == 0 and shown.read_bytes() == before


# Comments that hold a word such as "raises" or "ValueError" but say nothing of their line failing.
ORDINARY = ["# gradient of the logits; raises their attribution", "# TODO: handle the ValueError case",
            "# this raises the learning rate", "# break the loop after two invokes", "# compute the error",
            "# fails if the prompt is empty", "# see the NameError section of the docs"]
SAYS_IT = ["# raises NameError", "# fails on purpose", "# error!", "# will throw an error", "# RuntimeError here",
           "# <- raises: the graph is freed", "# expected NameError"]


def test_ordinary_comments_never_suppress_and_statements_do():
    line = "        model.lm_head.output.sum().backward()\n"
    for comment in ORDINARY + SAYS_IT:
        source = TWO_INVOKES.replace(line, line[:-1] + "  " + comment + "\n", 1)
        assert source != TWO_INVOKES
        found = [d.code for d in lint_source(source, "t.py")]
        assert found == ([] if comment in SAYS_IT else ["NNL001"]), comment
    unsaved = UNSAVED.replace("print(output)", "print(output)  # TODO: handle the ValueError case")
    assert [d.code for d in lint_source(unsaved, "t.py")] == ["NNL101"]


def test_the_hidden_count_is_in_every_output_formats_summary(tmp_path):
    demo = tmp_path / "demo.py"
    demo.write_text(TWO_INVOKES.replace(".backward()\n", ".backward()  # raises RuntimeError\n", 1)
                    + "\nimport pytest\nwith pytest.raises(NameError):\n" + "".join("    " + l + "\n" for l in UNSAVED.splitlines()))
    said = "2 findings in deliberate error demos not shown: --report-deliberate-errors"
    for args in ([], ["--output-format", "json"], ["--output-format", "full"], ["--output-format", "github"],
                 ["--output-format", "sarif"], ["--statistics"], ["--statistics", "--output-format", "json"]):
        result = run_cli("check", "--no-cache", *args, str(demo))
        assert result.returncode == 0 and "All checks passed." in result.stderr, (args, result.stderr)
        assert said in result.stderr, (args, result.stderr)
    # In the payloads too: JSON's summary, SARIF's run properties, a GitHub notice.
    payload = lambda *args: run_cli("check", "--no-cache", *args, str(demo)).stdout  # noqa: E731
    assert json.loads(payload("--output-format", "json")) == {
        "findings": [], "summary": {"found": 0, "deliberate_demos_not_shown": 2}}
    assert json.loads(payload("--statistics", "--output-format", "json")) == {
        "statistics": [], "summary": {"found": 0, "deliberate_demos_not_shown": 2}}
    assert json.loads(payload("--output-format", "sarif"))["runs"][0]["properties"] == {"deliberateDemosNotShown": 2}
    assert payload("--output-format", "github") == f"::notice title=nnsight-lint::{said}\n"
    assert said not in payload() and said not in payload("--statistics")  # text: the summary on stderr says it
    cached = [run_cli("check", str(demo), cwd=tmp_path) for _ in range(2)]  # the second from the cache
    assert all(said in r.stderr for r in cached), [r.stderr for r in cached]
    loud = run_cli("check", "--no-cache", "--report-deliberate-errors", str(demo))
    assert loud.returncode == 1 and "not shown" not in loud.stderr
