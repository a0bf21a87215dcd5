"""`engine.parser.parse_module` builds libcst's own tree, and libcst's node checks (and its own
`__init__`s) are back after it."""
from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import libcst as cst
import pytest

from nnsight_lint.engine import parser
from nnsight_lint.engine.parser import parse_module, unchecked_nodes

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


def _built_by_hand():
    """Nodes built with fields left out: required ones, plain defaults and default factories."""
    name = cst.Name("x")
    return [
        name,
        cst.Comma(),  # whitespace fields: default factories
        cst.Param(name, default=cst.Integer("1")),
        cst.Call(cst.Attribute(name, cst.Name("backward")), [cst.Arg(cst.Name("g"), keyword=cst.Name("gradient"))]),
        cst.FunctionDef(cst.Name("f"), cst.Parameters(), cst.IndentedBlock([cst.SimpleStatementLine([cst.Pass()])])),
        cst.Module([]),
    ]


def test_nodes_built_while_a_parse_runs_get_the_fields_and_defaults_libcst_gives():
    parse_module("x = 1\n")  # past a process's first parse
    checked, libcsts_own = _built_by_hand(), cst.Name.__dict__["__init__"]
    with unchecked_nodes():
        unchecked = _built_by_hand()
        assert cst.Name.__dict__["__init__"] is not libcsts_own
    assert cst.Name.__dict__["__init__"] is libcsts_own
    assert all(a.deep_equals(b) for a, b in zip(unchecked, checked))
    assert unchecked[-1].code == cst.Module([]).code
    assert unchecked[1].whitespace_after.value == cst.Comma().whitespace_after.value
    assert unchecked[1].whitespace_after is not cst.Comma().whitespace_after  # a factory's value, not a shared one
    with unchecked_nodes():
        assert _invalid_node().value == ""  # not refused while a parse runs
    assert _checks_are_on()


def test_every_node_class_but_the_ones_it_cannot_stand_in_for_is_built_unchecked():
    parse_module("x = 1\n")
    swapped = {owner for owner, name, _, _ in parser._swaps if name == "__init__"}
    nodes = {c for c in vars(cst).values()
             if isinstance(c, type) and issubclass(c, cst.CSTNode) and not c.__abstractmethods__}
    assert len(swapped & nodes) >= 0.9 * len(nodes)
    with pytest.raises(TypeError):  # the same signature: no field it does not have
        with unchecked_nodes():
            cst.Name("x", colour="red")


def test_a_process_that_parses_once_builds_no_inits():
    probe = """
import libcst as cst
from nnsight_lint.engine import parser
own = cst.Name.__dict__["__init__"]
for _ in range(3):
    with parser.unchecked_nodes():
        print(cst.Name.__dict__["__init__"] is own, parser._swaps is None)
"""
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert shown.split("\n")[:3] == ["True True", "False False", "False False"]


def test_a_run_over_many_files_puts_the_inits_in_once_for_all_of_them():
    """`parsing_many` has the plain `__init__`s built at its first parse, even a process's first,
    keeps them in between its parses, and takes them out at its end; before a parse it has
    imported nothing."""
    probe = """
import sys
from nnsight_lint.engine import parser
def plain():
    return cst.Name.__dict__["__init__"].__code__.co_filename == "<nnsight_lint.engine.parser>"
with parser.parsing_many():
    print("libcst" in sys.modules)
    for _ in range(3):
        parser.parse_module("x = 1\\n")
        import libcst as cst
        print(plain())
print(plain())
"""
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert shown.split("\n")[:5] == ["False", "True", "True", "True", "False"]
