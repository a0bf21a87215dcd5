"""`--output-format concise|full|json|github|sarif` and `--statistics`, on exact output."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import jsonschema  # installed with nbformat, a test dependency

from nnsight_lint import __version__, messages, rules
from nnsight_lint.doors import output
from nnsight_lint.diagnostics import Diagnostic, Position
from tests.support import TWO_INVOKES

ROOT = Path(__file__).resolve().parent.parent
URL = "https://github.com/nnsight-lint/nnsight-lint/blob/main/docs/rules/NNL001.md"

MESSAGE = messages.nnl001("backward()", 5)
MULTILINE = """\
from torch.autograd import grad

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        (g,) = grad(
            model.lm_head.output.sum(),
            model.lm_head.weight,
        )
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
"""
GRAD_MESSAGE = messages.nnl001("torch.autograd.grad()", 10)
BROKEN = "with model.trace() as tracer:\n    loss.backward(\n"  # NNL000: a trace that does not parse


def check(tmp_path, *args, files=(("bad.py", TWO_INVOKES),)):
    for name, text in files:
        (tmp_path / name).write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "nnsight_lint", "check", *args],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_concise_is_the_default(tmp_path):
    result = check(tmp_path, "bad.py")
    assert result.stdout == f"bad.py:3:36: NNL001 [*] {MESSAGE}\n"
    assert check(tmp_path, "--output-format", "concise", "bad.py").stdout == result.stdout


def test_full_shows_the_line_a_caret_the_story_the_fix_and_the_explain_pointer(tmp_path):
    result = check(tmp_path, "--output-format", "full", "bad.py", "multi.py",
                   files=(("bad.py", TWO_INVOKES), ("multi.py", MULTILINE)))
    assert result.returncode == 1
    assert result.stdout == f"""\
bad.py:3:36: NNL001 [*] {MESSAGE}
  |
3 |         model.lm_head.output.sum().backward()
  |                                    ^^^^^^^^ NNL001
  |
  = why: Every invoke of a trace runs in one batched forward, so they share one autograd graph; the
         first backward without `retain_graph=True` frees it, and the next one fails (RuntimeError:
         Trying to backward through the graph a second time).
  = fix (safe):
3 -         model.lm_head.output.sum().backward()
3 +         model.lm_head.output.sum().backward(retain_graph=True)
  = Run `nnsight-lint explain NNL001` for the full explanation.

multi.py:5:16: NNL001 [*] {GRAD_MESSAGE}
  |
5 |         (g,) = grad(
  |                ^^^^ NNL001
  |
  = why: Every invoke of a trace runs in one batched forward, so they share one autograd graph; the
         first backward without `retain_graph=True` frees it, and the next one fails (RuntimeError:
         Trying to backward through the graph a second time).
  = fix (safe):
8 -         )
8 +             retain_graph=True,
9 +         )
  = Run `nnsight-lint explain NNL001` for the full explanation.

"""


def test_full_reads_stdin_source_not_the_disk(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "nnsight_lint", "check", "--output-format", "full", "-", "--stdin-filename", "cell.py"],
        input=TWO_INVOKES, cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert "3 |         model.lm_head.output.sum().backward()\n" in result.stdout


def test_json(tmp_path):
    result = check(tmp_path, "--output-format", "json", "bad.py")
    assert result.returncode == 1
    assert json.loads(result.stdout)["findings"] == [
        {
            "code": "NNL001",
            "message": MESSAGE,
            "filename": "bad.py",
            "location": {"row": 3, "column": 36},
            "end_location": {"row": 3, "column": 44},
            "fix": {
                "applicability": "safe",
                "edits": [
                    {"content": "retain_graph=True", "location": {"row": 3, "column": 45},
                     "end_location": {"row": 3, "column": 45}}
                ],
            },
            "url": URL,
        }
    ]
    clean = check(tmp_path, "--output-format", "json", "good.py", files=(("good.py", "x = 1\n"),))
    assert clean.returncode == 0
    assert json.loads(clean.stdout) == {"findings": [], "summary": {"found": 0, "deliberate_demos_not_shown": 0}}


def test_json_without_a_fix_and_with_a_notebook_cell():
    diagnostic = Diagnostic("nb.ipynb", "NNL000", "invalid syntax: x", Position(2, 1), Position(2, 1), cell=3)
    assert json.loads(output.as_json([diagnostic]))["findings"] == [
        {
            "code": "NNL000",
            "message": "invalid syntax: x",
            "filename": "nb.ipynb",
            "location": {"row": 2, "column": 1},
            "end_location": {"row": 2, "column": 1},
            "fix": None,
            "url": URL.replace("NNL001", "NNL000"),
            "cell": 3,
        }
    ]


def test_github_workflow_commands(tmp_path):
    result = check(tmp_path, "--output-format", "github", "bad.py")
    assert result.stdout == f"::error file=bad.py,line=3,col=36,endLine=3,endColumn=44,title=NNL001::{MESSAGE}\n"


def test_github_escapes_data_and_properties():
    diagnostic = Diagnostic("dir,a:b%.py", "NNL001", "100% sure\r\nnext: a, b", Position(1, 2), Position(1, 3))
    assert output.github([diagnostic]) == (
        "::error file=dir%2Ca%3Ab%25.py,line=1,col=2,endLine=1,endColumn=3,title=NNL001"
        "::100%25 sure%0D%0Anext: a, b\n"
    )


# What SARIF 2.1.0 requires of the parts we write (sarif-schema-2.1.0.json: sarifLog, run, tool,
# toolComponent, reportingDescriptor, multiformatMessageString, result, message, location,
# physicalLocation, artifactLocation, region, fix, artifactChange, replacement), plus what GitHub
# code scanning reads: driver name and rules with help, result ruleId, a uri and a startLine.
_TEXT = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string", "minLength": 1}}}
_POSITIVE = {"type": "integer", "minimum": 1}
_REGION = {
    "type": "object",
    "required": ["startLine", "startColumn", "endLine", "endColumn"],
    "properties": {k: _POSITIVE for k in ("startLine", "startColumn", "endLine", "endColumn")},
}
_ARTIFACT = {
    "type": "object",
    "required": ["uri"],
    "properties": {"uri": {"type": "string", "pattern": "^[^/]"}, "uriBaseId": {"const": "%SRCROOT%"}},
}
SARIF_REQUIRED = {
    "type": "object",
    "required": ["version", "runs", "$schema"],
    "properties": {
        "version": {"const": "2.1.0"},
        "runs": {
            "type": "array", "minItems": 1,
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                    "tool": {
                        "type": "object", "required": ["driver"],
                        "properties": {"driver": {
                            "type": "object",
                            "required": ["name", "version", "informationUri", "rules"],
                            "properties": {"rules": {"type": "array", "items": {
                                "type": "object",
                                "required": ["id", "name", "shortDescription", "fullDescription", "help", "helpUri"],
                                "properties": {
                                    "shortDescription": _TEXT, "fullDescription": _TEXT,
                                    "help": {**_TEXT, "required": ["text", "markdown"]},
                                    "helpUri": {"type": "string", "pattern": "^https://"},
                                },
                            }}},
                        }},
                    },
                    "results": {"type": "array", "items": {
                        "type": "object",
                        "required": ["ruleId", "ruleIndex", "level", "message", "locations"],
                        "properties": {
                            "level": {"enum": ["none", "note", "warning", "error"]},
                            "message": _TEXT,
                            "locations": {"type": "array", "minItems": 1, "items": {
                                "type": "object", "required": ["physicalLocation"],
                                "properties": {"physicalLocation": {
                                    "type": "object", "required": ["artifactLocation", "region"],
                                    "properties": {"artifactLocation": _ARTIFACT, "region": _REGION},
                                }},
                            }},
                            "fixes": {"type": "array", "items": {
                                "type": "object", "required": ["description", "artifactChanges"],
                                "properties": {"description": _TEXT, "artifactChanges": {
                                    "type": "array", "minItems": 1, "items": {
                                        "type": "object", "required": ["artifactLocation", "replacements"],
                                        "properties": {"artifactLocation": _ARTIFACT, "replacements": {
                                            "type": "array", "minItems": 1, "items": {
                                                "type": "object", "required": ["deletedRegion"],
                                                "properties": {"deletedRegion": _REGION, "insertedContent": _TEXT},
                                            },
                                        }},
                                    },
                                }},
                            }},
                        },
                    }},
                },
            },
        },
    },
}


def test_sarif_has_what_github_code_scanning_needs(tmp_path):
    (tmp_path / "src").mkdir()
    result = check(tmp_path, "--output-format", "sarif", "src/bad.py", files=(("src/bad.py", TWO_INVOKES),))
    assert result.returncode == 1
    log = json.loads(result.stdout)
    jsonschema.validate(log, SARIF_REQUIRED)

    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("nnsight-lint", __version__)
    assert [r["id"] for r in driver["rules"]] == list(rules.RULES)
    nnl001 = driver["rules"][list(rules.RULES).index("NNL001")]
    assert nnl001["help"]["markdown"] == rules.explanation("NNL001")
    assert nnl001["helpUri"] == URL
    assert run["results"] == [
        {
            "ruleId": "NNL001",
            "ruleIndex": list(rules.RULES).index("NNL001"),
            "level": "error",
            "message": {"text": MESSAGE},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": "src/bad.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 3, "startColumn": 36, "endLine": 3, "endColumn": 44},
            }}],
            "fixes": [{
                "description": {"text": "Apply the safe fix for NNL001"},
                "artifactChanges": [{
                    "artifactLocation": {"uri": "src/bad.py", "uriBaseId": "%SRCROOT%"},
                    "replacements": [{
                        "deletedRegion": {"startLine": 3, "startColumn": 45, "endLine": 3, "endColumn": 45},
                        "insertedContent": {"text": "retain_graph=True"},
                    }],
                }],
            }],
        }
    ]


def test_sarif_with_no_findings_is_still_a_valid_log(tmp_path):
    result = check(tmp_path, "--output-format", "sarif", "good.py", files=(("good.py", "x = 1\n"),))
    log = json.loads(result.stdout)
    jsonschema.validate(log, SARIF_REQUIRED)
    assert log["runs"][0]["results"] == []


def test_statistics_count_per_code(tmp_path):
    files = (("a.py", TWO_INVOKES), ("b.py", TWO_INVOKES), ("c.py", BROKEN))
    result = check(tmp_path, "--statistics", ".", files=files)
    assert result.returncode == 1
    assert result.stdout == "2\tNNL001\t[*] backward-frees-shared-graph\n1\tNNL000\t    invalid-syntax\n"
    as_json = check(tmp_path, "--statistics", "--output-format", "json", ".", files=files)
    assert json.loads(as_json.stdout) == {"statistics": [
        {"code": "NNL001", "name": "backward-frees-shared-graph", "count": 2, "fixable": 2},
        {"code": "NNL000", "name": "invalid-syntax", "count": 1, "fixable": 0},
    ], "summary": {"found": 3, "deliberate_demos_not_shown": 0}}


def test_fix_reports_what_remains_in_the_chosen_format(tmp_path):
    result = check(tmp_path, "--fix", "--output-format", "json", ".", files=(("c.py", BROKEN),))
    report = json.loads(result.stdout)
    assert [d["code"] for d in report["findings"]] == ["NNL000"]
    assert report["summary"] == {"found": 1, "deliberate_demos_not_shown": None}  # a --fix run does not count them


# --- notebooks: positions in the .ipynb JSON, fixes on its text ---------------------------------

# Escapes before the finding, in both source forms: a tab, quotes, a backslash, non-ASCII text
# (written as \uXXXX, a surrogate pair for the emoji) and, in the string form, the line breaks.
NOTEBOOK_PREFIX = 's = "tab\there \\\\ \'q\' é 😀"\n'
NOTEBOOK_CELL = NOTEBOOK_PREFIX + TWO_INVOKES  # the finding: cell 2, line 4, columns 36-44
NOTEBOOK_MESSAGE = messages.nnl001("backward()", 6)


def _notebook(form: str) -> str:
    source = NOTEBOOK_CELL if form == "string" else NOTEBOOK_CELL.splitlines(keepends=True)
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# A title\n", "text"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ["import torch\n"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source},
    ]
    document = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=True) + "\n"


def _expected_place(raw: str, form: str, line: int, column: int):
    """(JSON line, column) of cell 2's (line, column), worked out with `json.dumps` alone."""
    lines = NOTEBOOK_CELL.splitlines(keepends=True)
    if form == "string":
        literal, before = json.dumps(NOTEBOOK_CELL), "".join(lines[: line - 1]) + lines[line - 1][: column - 1]
    else:
        literal, before = json.dumps(lines[line - 1]), lines[line - 1][: column - 1]
    start = raw.index(literal)
    offset = start + 1 + len(json.dumps(before)) - 2
    return raw.count("\n", 0, offset) + 1, offset - (raw.rfind("\n", 0, offset) + 1) + 1


def _apply(raw: str, replacements) -> str:
    """A minimal SARIF client: apply `replacements` (deletedRegion, insertedContent) to `raw`."""
    starts = [0] + [i + 1 for i, char in enumerate(raw) if char == "\n"]
    spans = []
    for replacement in replacements:
        region = replacement["deletedRegion"]
        start = starts[region["startLine"] - 1] + region["startColumn"] - 1
        end = starts[region["endLine"] - 1] + region["endColumn"] - 1
        spans.append((start, end, replacement.get("insertedContent", {}).get("text", "")))
    for start, end, text in sorted(spans, reverse=True):
        raw = raw[:start] + text + raw[end:]
    return raw


@pytest.mark.parametrize("form", ["string", "list"])
def test_sarif_on_a_notebook_points_into_the_json_and_its_fix_gives_what_fix_writes(tmp_path, form):
    raw = _notebook(form)
    result = check(tmp_path, "--output-format", "sarif", "nb.ipynb", files=(("nb.ipynb", raw),))
    log = json.loads(result.stdout)
    jsonschema.validate(log, SARIF_REQUIRED)
    [finding] = log["runs"][0]["results"]
    assert finding["message"]["text"] == f"cell 2, line 4: {NOTEBOOK_MESSAGE}"
    region = finding["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == _expected_place(raw, form, 4, 36)
    assert (region["endLine"], region["endColumn"]) == _expected_place(raw, form, 4, 44)
    assert raw.splitlines()[region["startLine"] - 1][region["startColumn"] - 1 :].startswith("backward()")

    [change] = finding["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "nb.ipynb", "uriBaseId": "%SRCROOT%"}
    patched = _apply(raw, change["replacements"])
    json.loads(patched)  # still a notebook
    fixed = check(tmp_path, "--fix", "nb.ipynb", files=(("nb.ipynb", raw),))
    assert (fixed.returncode, fixed.stderr) == (0, "Fixed 1 problem, 0 remaining.\n")
    assert patched == (tmp_path / "nb.ipynb").read_text()
    assert patched != raw


def test_github_on_a_notebook_points_into_the_json_and_names_the_cell(tmp_path):
    raw = _notebook("list")
    result = check(tmp_path, "--output-format", "github", "nb.ipynb", files=(("nb.ipynb", raw),))
    line, column = _expected_place(raw, "list", 4, 36)
    end_line, end_column = _expected_place(raw, "list", 4, 44)
    assert result.stdout == (
        f"::error file=nb.ipynb,line={line},col={column},endLine={end_line},endColumn={end_column},"
        f"title=NNL001::cell 2, line 4: {NOTEBOOK_MESSAGE}\n"
    )


def test_full_on_a_notebook_shows_the_cells_line_and_fix(tmp_path):
    raw = _notebook("list")
    result = check(tmp_path, "--output-format", "full", "nb.ipynb", files=(("nb.ipynb", raw),))
    lines = result.stdout.splitlines()
    assert lines[0] == f"nb.ipynb:cell 2:4:36: NNL001 [*] {NOTEBOOK_MESSAGE}"
    assert lines[1:5] == [
        "  |",
        "4 |         model.lm_head.output.sum().backward()",
        "  |                                    ^^^^^^^^ NNL001",
        "  |",
    ]
    assert "4 +         model.lm_head.output.sum().backward(retain_graph=True)" in lines


def test_diff_of_a_notebook_on_stdin_is_per_cell():
    from tests.support import run_cli

    result = run_cli("check", "--diff", "-", stdin=_notebook("string"))
    assert result.returncode == 1
    assert result.stdout.startswith("--- a/-:cell 2\n+++ b/-:cell 2\n"), result.stdout
