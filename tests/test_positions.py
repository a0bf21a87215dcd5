"""Our span recorder gives exactly libcst's PositionProvider ranges, for every node."""
from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from nnsight_lint.positions import Positions

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


@pytest.mark.parametrize("name", [*SOURCES, "duplicate-statements", "leading-comments"])
def test_statements_placed_in_the_text_match_position_provider(name):
    """Only the top-level statements holding an anchor are generated and found in the text."""
    text = {
        "duplicate-statements": "x.backward()\nx.backward()\n\ndef f():\n    y.backward()\n",
        "leading-comments": "# a\n\n# b\n@dec  # c\n\n@dec2\ndef f():\n    # d\n    y.backward(\n  g)\n",
    }.get(name) or SOURCES[name]
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    calls = _calls(module)
    positions = Positions(module, {id(call) for call in calls}, text)
    for call in calls:
        start, end = positions.span(call)
        code_range = expected[call]
        assert (start.line, start.column - 1, end.line, end.column - 1) == (
            code_range.start.line, code_range.start.column, code_range.end.line, code_range.end.column,
        )
