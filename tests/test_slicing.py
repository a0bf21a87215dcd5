"""Blanking irrelevant top-level definitions changes speed only: the same findings, at the same
positions, as parsing the whole file; and every kept line is untouched."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nnsight_lint import rules
from nnsight_lint.engine.lint import DEFAULT_OPTIONS, _trace_pattern_text, check_module, lint_source, parse
from nnsight_lint.engine.slicing import relevant_text, sliced
from nnsight_lint.engine.text import split_lines
from tests.support import ROOT, assert_statements_place_exactly

OPENER = _trace_pattern_text(("trace",))

TRICKY = {
    "helpers-and-noise": '''\
import torch

def unrelated():
    return """
def fake_inside_a_string():
    pass
"""

def inner(loss):
    loss.backward()

def outer(loss):
    inner(loss)

@decorator(
    argument=1,
)
def decorated():
    pass
def right_after_decorated():
    pass

class Big:
    def method(self):
        return [1,
2]

value = (1 +
2)
if value:
    pass
else:
    def defined_in_else():
        pass

with model.trace() as tracer:
    with tracer.invoke("a"):
        outer(model.lm_head.output.sum())
    with tracer.invoke("b"):
        model.lm_head.output.sum().backward()
''',
    "method-helper": '''\
class Runner:
    def push(self, loss):
        loss.backward()

    def run(self, model):
        with model.trace() as t:
            with t.invoke("a"):
                self.push(model.lm_head.output.sum())
            with t.invoke("b"):
                self.push(model.lm_head.output.sum())

def later_helper(x):
    x.backward()

with model.trace() as t:
    later_helper(model.output.logits.sum())
    model.lm_head.output.sum().backward()
''',
    "continuations": (
        "x = 1 + \\\n    2\ndef f():\n    pass\nwith model.trace():\n"
        "    loss = model.lm_head.output.sum() * x\n    loss.backward()\n    loss.backward()\n"
    ),
    "form feeds": "def noise():\n    pass\n\x0c\n\x0cdef helper(l):\n    l.backward()\n\n\x0cwith m.trace():\n    helper(a)\n    helper(b)\n",
    "crlf": "def helper(l):\r\n    l.backward()\r\n\r\ndef noise():\r\n    pass\r\n\r\nwith m.trace():\r\n    helper(a)\r\n    helper(b)\r\n",
    # A trace block goes on past a line at its opener's indentation that starts no statement: the
    # closing bracket of a multi-line opener (as black writes it), a string's or a comment's line.
    "multi-line-opener": (
        "def push(logits):\n    logits.sum().backward()\n\ndef noise():\n    pass\n\n"
        "with model.trace(\n    'hello world'\n) as tracer:\n    push(model.lm_head.output)\n    push(model.lm_head.output)\n"
    ),
    "string-at-column-0": (
        "def push(logits):\n    logits.sum().backward()\n\ndef noise():\n    pass\n\n"
        "with model.trace('a'):\n    note = \"\"\"\nat column 0\n\"\"\"\n    push(model.lm_head.output)\n"
        "    model.lm_head.output.sum().backward()\n"
    ),
    "comment-at-column-0": (
        "def push(logits):\n    logits.sum().backward()\n\ndef noise():\n    pass\n\n"
        "def run():\n    with model.trace('a'):\n#       commented out\n        push(model.lm_head.output)\n"
        "        model.lm_head.output.sum().backward()\n    return 1\n"
    ),
}
CASES = sorted((ROOT / "rules").glob("NNL*/*.py"))


def whole_file_findings(text: str, path: str):
    """What the rules find on the whole file, selected as `lint_source` selects them (a rule that
    applies only to other nnsight releases, NNL507 before 0.5, is not run)."""
    module = parse(text, path)
    return check_module(module, path, rules.selected(target=DEFAULT_OPTIONS.target_version), text=text)


def as_tuples(diagnostics):
    return [(d.code, d.start, d.end, d.message, d.fix) for d in diagnostics]


@pytest.mark.parametrize("name", TRICKY)
def test_tricky_sources_find_the_same_as_the_whole_file(name):
    text = TRICKY[name]
    parts = sliced(text, OPENER)  # (some blank nothing: their definitions are all used)
    assert parts is not None
    kept, original = split_lines(parts.text), split_lines(text)
    assert len(kept) == len(original)
    assert all(line in ("", orig) for line, orig in zip(kept, original))
    assert as_tuples(lint_source(text, "x.py")) == as_tuples(whole_file_findings(text, "x.py"))
    assert lint_source(text, "x.py"), "the cases all hold findings"


def test_what_is_blanked_and_what_is_kept():
    sliced = split_lines(relevant_text(TRICKY["helpers-and-noise"], OPENER))
    text = "\n".join(sliced)
    for kept in ("def inner", "def outer", "value = (1 +", "else:", "def defined_in_else", "import torch"):
        assert kept in text
    for blanked in ("def unrelated", "fake_inside_a_string", "def decorated", "right_after_decorated", "class Big"):
        assert blanked not in text


def test_an_unterminated_string_blanks_nothing():
    assert relevant_text("def f():\n    s = 'open\nwith m.trace():\n    x.backward()\n", OPENER) is None


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_corpus_findings_do_not_depend_on_slicing(case: Path):
    text = case.read_text(encoding="utf-8")
    assert as_tuples(lint_source(text, str(case))) == as_tuples(whole_file_findings(text, str(case)))


def test_generated_corpus_findings_do_not_depend_on_slicing(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gen_corpus.py"), str(tmp_path), "--files", "12"],
                   check=True)
    for path in sorted(tmp_path.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert relevant_text(text, OPENER) is not None  # these files have definitions to blank
        assert as_tuples(lint_source(text, path.name)) == as_tuples(whole_file_findings(text, path.name))


def test_a_definition_using_nnsight_api_is_kept_wherever_it_is_called():
    from nnsight_lint.engine.lint import parsed_part

    text = (
        "from nnsight import LanguageModel\n"
        "net = LanguageModel('gpt2')\n\n"
        "def weights():\n    return net._model.lm_head.weight\n\n"
        "def old_buffer():\n    import nnsight\n    return nnsight.list()\n\n"
        "def unrelated(model):\n    return model\n\n"
        "def says_net_in_words():\n    \"\"\"Nothing of net here.\"\"\"\n    return 1  # nor net\n\n"
        "with traced.trace('hello'):\n    pass\n\n"
        "def reads_the_traced_model():\n    return traced._model\n\n"
        "def handed_the_model(m):\n    return m._model\n\n"
        "print(handed_the_model(net))\n"
    )
    kept = parsed_part(text)
    for name in ("def weights", "def old_buffer", "def reads_the_traced_model", "def handed_the_model"):
        assert name in kept
    assert "def unrelated" not in kept  # a parameter named `model` is no nnsight model of the file's
    assert "def says_net_in_words" not in kept  # the name in a docstring or a comment reads nothing
    assert as_tuples(lint_source(text, "x.py")) == as_tuples(whole_file_findings(text, "x.py"))


KEPT_EXAMPLES = (
    "def f(self):\n    def forward(x):\n        pass\n", "def f():\n    h.save()\n", "def f():\n    nnsight.save(h)\n",
    "@contextlib.contextmanager\ndef trace(x):\n    yield\n", "class A:\n    def __enter__(self):\n        pass\n",
    "def f():\n    return LanguageModel('gpt2')\n", "def f():\n    m = NNsight(net)\n", "def f():\n    VLLM('x')\n",
    "def f():\n    TransformersModel('x')\n", "def f():\n    global hidden\n", "def f():\n    import nnsight\n",
    "def f():\n    from nnsight import CONFIG\n", "def f():\n    nnsight.list()\n",
)


def test_the_kept_definitions_gate_finds_what_its_regex_finds():
    """Every alternative of the regex holds one of the needles: a gated search answers as the
    regex does, on one example of each alternative and on every definition of this repository."""
    from nnsight_lint.engine.lint import _KEPT_DEFINITIONS
    from nnsight_lint.engine.text import LINE_BREAK
    from nnsight_lint.engine import slicing

    for example in KEPT_EXAMPLES:
        assert _KEPT_DEFINITIONS.pattern.search(example), example
        assert _KEPT_DEFINITIONS.search(example), example
    root = Path(__file__).resolve().parent.parent
    compared = 0
    for path in [*root.glob("nnsight_lint/**/*.py"), *root.glob("tests/**/*.py"), *root.glob("rules/**/*.py")]:
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = LINE_BREAK.split(text)
        starts = slicing._statement_starts(text, lines)
        for first, end in slicing._group(lines, starts) if starts else ():
            statement = slicing._joined(lines, first, end)
            assert bool(_KEPT_DEFINITIONS.search(statement)) == bool(_KEPT_DEFINITIONS.pattern.search(statement)), path
            compared += 1
    assert compared > 1000


@pytest.mark.parametrize("text", ["", "a", "a\n", "\r\n", "\r\r\n\n", "a\rb\r\nc\nd", "\n\r", "\r\n\r\n\r"])
def test_line_breaks_counts_what_line_break_matches(text):
    from nnsight_lint.engine.text import LINE_BREAK, line_breaks

    assert line_breaks(text) == len(LINE_BREAK.findall(text))


def test_the_kept_statements_lines_place_every_node_exactly():
    """`Sliced.statements` bracket each kept top-level statement, with definitions blanked or with
    nothing to blank: positions given them place every node of the sliced tree as PositionProvider
    does in its text, and in the file's own text (the rules') where searching the text placed it."""
    import libcst as cst

    from nnsight_lint.engine.lint import sliced_text
    from nnsight_lint.engine.positions import Positions

    def every_node(node):
        yield node
        for child in node.children:
            yield from every_node(child)

    kinds = set()
    for text in [*TRICKY.values(), *(case.read_text(encoding="utf-8") for case in CASES)]:
        sliced = sliced_text(text)
        if sliced is None:
            continue
        kinds.add(bool(sliced.blanked))
        module = cst.parse_module(sliced.text)
        assert_statements_place_exactly(module, sliced.text, sliced.statements)
        # In the file's own text (what the rules are given): where positions placed every node
        # before they were given the statements' lines.
        bracketed = Positions(module, text, likely=module.body, statements=sliced.statements)
        searched = Positions(module, text, likely=module.body)
        assert bracketed._statements is not None
        for node in every_node(module):
            assert bracketed.span(node) == searched.span(node), type(node).__name__
    assert kinds == {True, False}


def test_nothing_to_blank_is_the_text_itself_with_its_statements():
    text = "import torch\n\nwith m.trace('a'):\n    x = 1\n# the end\ny = (\n  2)\n"
    parts = sliced(text, OPENER)
    assert parts.text is text and parts.blanked == ""
    assert parts.statements == [(0, 2), (2, 5), (5, 8)]
    assert relevant_text(text, OPENER) is None
