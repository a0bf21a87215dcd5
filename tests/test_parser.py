"""`engine.parser.parse_module` builds libcst's own tree, and libcst's node checks are back after it."""
from __future__ import annotations

import threading
from pathlib import Path

import libcst as cst
import pytest

from nnsight_lint.engine.parser import parse_module

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "rules").glob("NNL*/*.py"))
EDGES = {
    "crlf": "with model.trace() as t:\r\n    with t.invoke('a'):\r\n        x.backward()\r\n",
    "lone-cr": "a = 1\rb = (\r  2,\r)\r",
    "unicode": "s = '😀é'; loss.backward(  # ünï\n    g,\n)\n",
    "tabs": "if x:\n\tif y:\n\t\tz.backward()\n",
    "no-trailing-newline": "@dec\ndef f(a, *, b=1):\n    return a",
    "bytes-with-coding": "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n".encode("latin-1"),
    "empty": "",
}


def _invalid_node():
    """A node no source could spell: libcst's check refuses it as it is built."""
    return cst.Name("")


def _checks_are_on() -> bool:
    try:
        _invalid_node()
    except cst.CSTValidationError:
        return True
    return False


def test_the_check_refuses_the_invalid_node_to_begin_with():
    assert _checks_are_on()


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_same_tree_as_libcst_for_every_case_file(path):
    source = path.read_text(encoding="utf-8")
    tree = parse_module(source)
    assert tree.deep_equals(cst.parse_module(source))
    assert tree.code == source
    assert _checks_are_on()


@pytest.mark.parametrize("name", EDGES)
def test_same_tree_as_libcst_for_edge_sources(name):
    source = EDGES[name]
    tree = parse_module(source)
    checked = cst.parse_module(source)
    assert tree.deep_equals(checked)
    assert tree.bytes == checked.bytes and tree.encoding == checked.encoding
    assert _checks_are_on()


def test_checks_are_back_after_a_syntax_error():
    with pytest.raises(cst.ParserSyntaxError):
        parse_module("def f(:\n    pass\n")
    assert _checks_are_on()


def test_checks_are_back_after_parses_in_many_threads():
    source = (ROOT / "examples").glob("*.py").__next__().read_text(encoding="utf-8")
    expected = cst.parse_module(source)
    start = threading.Barrier(8)
    outcomes = []

    def parse_some(index: int) -> None:
        start.wait()
        for _ in range(5):
            text = source if index % 2 else "x = (\n"  # half of them raise while others run
            try:
                outcomes.append(parse_module(text).deep_equals(expected))
            except cst.ParserSyntaxError:
                outcomes.append("syntax error")

    threads = [threading.Thread(target=parse_some, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count(True) == 20 and outcomes.count("syntax error") == 20
    assert _checks_are_on()
