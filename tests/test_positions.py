"""Our span recorder gives exactly libcst's PositionProvider ranges, for every node."""
from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from nnsight_lint.diagnostics import Position
from nnsight_lint.engine.positions import Positions

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {
    "corpus": "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "rules").glob("NNL*/*.py"))),
    "crlf": "with model.trace() as t:\r\n    with t.invoke('a'):\r\n        x.backward()\r\n",
    "lone-cr": "a = 1\rb = (\r  2,\r)\r",
    "unicode": "s = '😀é'; loss.backward(  # ünï\n    g,\n)\n",
    "tabs": "if x:\n\tif y:\n\t\tz.backward()\n",
    "no-trailing-newline": "@dec\ndef f(a, *, b=1):\n    return a",
    "empty": "",
}


@pytest.mark.parametrize("name", SOURCES)
def test_every_node_matches_position_provider(name):
    module = cst.parse_module(SOURCES[name])
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions = Positions(module)
    for node, code_range in expected.items():
        start, end = positions.span(node)
        assert (start.line, start.column - 1, end.line, end.column - 1) == (
            code_range.start.line,
            code_range.start.column,
            code_range.end.line,
            code_range.end.column,
        ), type(node).__name__


def _calls(module):
    found, stack = [], [module]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            found.append(node)
        stack.extend(node.children)
    return found


TEXTS = {
    **SOURCES,
    "duplicate-statements": "x.backward()\nx.backward()\n\ndef f():\n    y.backward()\n",
    "leading-comments": "# a\n\n# b\n@dec  # c\n\n@dec2\ndef f():\n    # d\n    y.backward(\n  g)\n",
}


@pytest.mark.parametrize("name", TEXTS)
def test_statements_placed_in_the_text_match_position_provider(name):
    """Each node asked for costs the top-level statement holding it, found in the text; a cache
    kept for the next version of the document gives the same positions again."""
    text = TEXTS[name]
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    cache = {}
    for _ in range(2):
        positions = Positions(module, text, cache=cache)
        for node in [*_calls(module), *expected]:
            start, end = positions.span(node)
            code_range = expected[node]
            assert (start.line, start.column - 1, end.line, end.column - 1) == (
                code_range.start.line, code_range.start.column, code_range.end.line, code_range.end.column,
            ), type(node).__name__


def test_a_node_costs_only_its_own_statement():
    """One version of a text: only the statement holding the node is generated."""
    text = "import torch\n\ndef f():\n    a.backward()\n\ndef g():\n    b.backward()\n\nx = 1\n"
    module = cst.parse_module(text)
    positions = Positions(module, text, likely=[module.body[2]])
    (call,) = _calls(module.body[2])
    assert positions.span(call)[0].line == 7
    assert positions.span(call.func.attr)[0] == Position(7, 7)  # a name only the code generator visits
    # Only the simple statement was generated (found once between `def f` and `x = 1`), not `def g`.
    assert module.body[2] not in positions._owner and module.body[2].name not in positions._owner
    # The compound statement's own range needs its whole code: then the top-level statement is generated.
    assert positions.span(module.body[2]) == (Position(6, 1), Position(7, 17))


def test_a_documents_versions_generate_a_statement_once():
    """A document's versions (the cache): the top-level statement holding a node is generated once,
    and the next version that keeps it finds it again, moved, without generating it."""
    text = "import torch\n\ndef f():\n    a.backward()\n\ndef g():\n    b.backward()\n\nx = 1\n"
    module = cst.parse_module(text)
    cache = {}
    (call,) = _calls(module.body[2])
    assert Positions(module, text, cache=cache).span(call)[0] == Position(7, 5)
    [generated] = cache.values()
    assert generated.statement is module.body[2]
    edited = module.with_changes(body=[cst.parse_statement("y = 0\n"), *module.body])
    assert Positions(edited, "y = 0\n" + text, cache=cache).span(call)[0] == Position(8, 5)
    assert list(cache.values()) == [generated]


DUPLICATES = {
    "same-statement-twice-in-a-def": "def f():\n    a.backward()\n    a.backward()\n\ndef g():\n    a.backward()\n",
    "same-trace-twice": "with m.trace() as t:\n    a.backward()\nwith m.trace() as t:\n    a.backward()\n",
    "nested-with-header": (
        "def f():\n    with m.trace(\n        x,\n    ) as t:\n        with (a.backward()):\n            pass\n"
    ),
    "no-trailing-newline": "foo()\nbar()\nfoo()",
    "suite-and-else": "if x: a.backward()\nelse:\n    a.backward()\ntry:\n    b()\nexcept E as e:\n    b()\n",
    "elif": "if a:\n    pass\nelif b == 1:\n    x.backward()\nelif b == 1:\n    pass\n",
    "match": "match x:\n    case [a]:\n        a.backward()\n",
}


@pytest.mark.parametrize("name", DUPLICATES)
def test_statements_found_more_than_once_are_placed_exactly(name):
    """A statement (or header) placed alone must be found once between top-level statements found
    once; otherwise the top-level statement is generated. Every node is checked, one fresh
    `Positions` per node, so each takes the cheap route when it can."""
    text = DUPLICATES[name]
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    for node, code_range in expected.items():
        start, end = Positions(module, text).span(node)
        assert (start.line, start.column - 1, end.line, end.column - 1) == (
            code_range.start.line, code_range.start.column, code_range.end.line, code_range.end.column,
        ), type(node).__name__


COMPOUND = (cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While, cst.With, cst.Try, cst.ExceptHandler, cst.Else,
            cst.Finally)


@pytest.mark.parametrize("name", [*TEXTS, *DUPLICATES])
def test_the_start_of_a_compound_statement_from_its_header(name):
    """`start` finds a compound statement from its header alone; it is PositionProvider's start."""
    text = {**TEXTS, **DUPLICATES}[name]
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    for node, code_range in expected.items():
        if isinstance(node, COMPOUND):
            start = Positions(module, text).start(node)
            assert (start.line, start.column - 1) == (code_range.start.line, code_range.start.column)
