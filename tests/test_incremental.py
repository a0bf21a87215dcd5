"""An editor's document parsed version after version gives exactly what a whole parse gives: the
same tree (libcst's deep equality, the same code) or the same error, and the same findings."""
from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
import pytest

from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.engine.lint import DEFAULT_OPTIONS, lint_source, parse
from nnsight_lint.engine.incremental import Document

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "rules").glob("NNL*/*.py")) + sorted((ROOT / "examples").glob("*.py"))
INSERTIONS = [
    "x", "(", ")", ":", "\n", "\n\n", "    ", "\t", "# note\n", "#", "'", '"""', "\\\n", "pass\n",
    "def helper():\n    return 1\n", "    # indented comment\n", "if True:\n  y = 2\n", "\r\n", ";z = 3",
    "with model.trace('a'):\n    h = model.transformer.h[0].output.save()\n",
]


def _edit(text: str, chance: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    kind = chance.randrange(6)
    if kind == 0 or not lines:  # insert something somewhere
        at = chance.randrange(len(text) + 1)
        return text[:at] + chance.choice(INSERTIONS) + text[at:]
    if kind == 1:  # delete a little
        at = chance.randrange(len(text) + 1)
        return text[:at] + text[at + chance.randrange(1, 12):]
    index = chance.randrange(len(lines))
    line = lines[index]
    if kind == 2:  # indent or dedent a line
        lines[index] = "    " + line if chance.random() < 0.5 else line[4:] if line.startswith("    ") else line.lstrip()
    elif kind == 3:  # comment a line out
        lines[index] = "# " + line
    elif kind == 4:  # duplicate a line
        lines.insert(index, line)
    else:  # insert a line at the start of a line
        lines.insert(index, chance.choice(INSERTIONS).rstrip("\n") + "\n")
    return "".join(lines)


def _same(reparsed, text: str) -> None:
    whole = parse(text, "t.py")
    if isinstance(whole, Diagnostic):
        assert isinstance(reparsed, Diagnostic) and reparsed.start == whole.start, text
        return
    assert not isinstance(reparsed, Diagnostic), text
    assert reparsed.code == whole.code  # the text, but where libcst drops a lone `\` line
    assert reparsed.deep_equals(whole), text


LAYOUTS = {
    "as-written": lambda text: text,
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "tabs": lambda text: text.replace("    ", "\t"),
    "two-spaces-and-cr": lambda text: text.replace("    ", "  ").replace("\n", "\r"),
}


# Every other file as written; every eighth in each other layout.
CASES = [(path, "as-written") for path in FILES[::2]] + [
    (path, layout) for offset, layout in enumerate(list(LAYOUTS)[1:]) for path in FILES[offset::8]
]


@pytest.mark.parametrize("path, layout", CASES, ids=lambda case: getattr(case, "name", case))
def test_edit_after_edit_parses_as_a_whole_parse(path, layout):
    chance = random.Random(path.name + layout)
    document = Document()
    text = LAYOUTS[layout](path.read_text(encoding="utf-8"))
    _same(document.parse(text, "t.py"), text)
    for _ in range(25):
        text = _edit(text, chance)
        _same(document.parse(text, "t.py"), text)


@pytest.mark.parametrize("path", FILES[1::6], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_findings_of_edited_versions_are_a_whole_lint_s(path):
    chance = random.Random("lint" + path.name)
    document = Document()
    text = path.read_text(encoding="utf-8")
    for _ in range(10):
        assert lint_source(text, "t.py", DEFAULT_OPTIONS, document) == lint_source(text, "t.py")
        text = _edit(text, chance)


def test_an_edit_parses_only_the_statements_around_it(monkeypatch):
    body = "".join(f"def f{n}():\n    return {n}\n\n\n" for n in range(30))
    document = Document()
    before = document.parse(body, "t.py")
    parsed = []
    monkeypatch.setattr(cst, "parse_module", lambda text, *a, **k: parsed.append(text) or _parse(text, *a, **k))
    after = document.parse(body.replace("return 7", "return 70"), "t.py")
    (piece,) = parsed
    assert [n for n in range(30) if f"def f{n}()" in piece] == [6, 7, 8] and "return 70" in piece
    kept = [n for n in range(30) if after.body[n] is before.body[n]]
    assert kept == [n for n in range(30) if n not in (6, 7, 8)]


_parse = cst.parse_module


@pytest.mark.parametrize("before, after", [
    ("if a:\n  b\n\nx = 1\ny = 2\n", "if a:\n  b\n\nx = 1\nif c:\n    d\n"),  # 2-space file, 4-space piece
    ("def f():\n    a\n\n# c\nx = 1\ny = 2\n", "def f():\n    a\n\n    # c\nx = 1\ny = 2\n"),  # comment joins f
    ("x = 1\ny = 2\nz = 3\n", "x = 1\ny = 2\nz = 3\nif q:\n\tw\n"),  # no block before: tabs decide
    ("def f():\n    a\nx = 1\ny = 2\nz = 3\n", "def f():\n    a\nx = 1\ny = 2\n# z = 3\n"),  # ends in a comment
    ("def f():\n    a\nx = 1\r\ny = 2\n", "def f():\n    a\nx = 1\r\ny = 3\n"),  # mixed line breaks
    ("def f():\n    a\nx = (1,\n 2)\ny = 2\n", "def f():\n    a\nx = (1,\n 2\ny = 2\n"),  # unclosed: the error
    ("def f():\n    a\nx = 1\ny = 2\n", "def f():\n    a\nx = 1\ny = 2"),  # no newline at the end
    ("# head\ndef f():\n    a\n", "# head\n\ndef f():\n    a\n"),  # the header
])
def test_edits_that_change_more_than_their_statement(before, after):
    document = Document()
    _same(document.parse(before, "t.py"), before)
    _same(document.parse(after, "t.py"), after)


NOTEBOOKS = sorted((ROOT / "tests" / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_cells_edited_lint_as_a_whole_lint(path):
    from nnsight_lint.sources import notebook

    cells = [cell.source for cell in notebook.read(path.read_bytes()).cells]
    chance = random.Random(path.name)
    document = Document()
    for _ in range(12):
        assert notebook.lint_cells(cells, "n.ipynb", DEFAULT_OPTIONS, document=document) == notebook.lint_cells(
            cells, "n.ipynb", DEFAULT_OPTIONS)
        if cells:
            index = chance.randrange(len(cells))
            cells[index] = _edit(cells[index], chance)


def test_a_file_libcst_does_not_give_back_is_parsed_whole():
    """libcst drops a line holding only `\\` before an indented statement: offsets measured on its
    code would be wrong in the text, so no piece is parsed alone."""
    text = "def f():\n    a\n\n# c\n\\\n    with x:\n        y\nz = 1\n"
    document = Document()
    _same(document.parse(text, "t.py"), text)
    edited = text.replace("z = 1", "z = 2")
    _same(document.parse(edited, "t.py"), edited)


@pytest.mark.parametrize("path, layout", CASES[::3], ids=lambda case: getattr(case, "name", case))
def test_statement_starts_rescanned_around_an_edit_are_a_whole_scan_s(path, layout):
    from nnsight_lint.engine.slicing import _statement_starts
    from nnsight_lint.engine.text import LINE_BREAK

    chance = random.Random("starts" + path.name + layout)
    document = Document()
    text = LAYOUTS[layout](path.read_text(encoding="utf-8"))
    for _ in range(30):
        lines = LINE_BREAK.split(text)
        assert document.statement_starts(text, lines) == _statement_starts(text, lines), text
        text = _edit(text, chance)


def test_a_helper_edited_to_hold_what_slicing_keeps_lints_as_a_whole_lint():
    """Slicing remembers what each statement's text held for the next version (`Document.searched`):
    a helper whose edit makes it kept (a `.save()`, a trace) or blanked again must be judged anew."""
    head = 'from nnsight import LanguageModel\nmodel = LanguageModel("gpt2")\n\n'
    trace = "with model.trace('x'):\n    h = model.transformer.h[0].output[0]\n    g = helper(h)\n\n"
    versions = [
        head + "def helper(v):\n    return v\n\n" + trace,
        head + "def helper(v):\n    return v.save()\n\n" + trace,
        head + "def other(v):\n    return v.save()\n\n" + trace,
        head + "def other(v):\n    with model.trace('y'):\n        model.transformer.h[0].output[0].save()\n\n" + trace,
        head + "def other(v):\n    return v\n\n" + trace,
    ]
    document = Document()
    for text in versions:
        assert lint_source(text, "t.py", DEFAULT_OPTIONS, document) == lint_source(text, "t.py")
    assert document.searched, "the document keeps what slicing found"
