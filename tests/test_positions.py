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
