"""What the registry and the engine do for every rule: opt-in selection, target versions, and code
that shows an error on purpose."""
from __future__ import annotations

from nnsight_lint import rules
from nnsight_lint.engine.lint import LintOptions, lint_source
from tests.support import TWO_INVOKES


def codes(source: str, **options) -> list:
    return [(d.line, d.code) for d in lint_source(source, "x.py", LintOptions(**options))]


def test_default_selection_is_every_default_rule_that_applies():
    chosen = rules.selected()
    assert "NNL001" in chosen
    assert all(rules.is_default(code) for code in chosen)


def test_an_opt_in_rule_needs_its_full_code(monkeypatch):
    monkeypatch.setattr(rules.rule("NNL001"), "DEFAULT", False)
    assert "NNL001" not in rules.selected()
    assert "NNL001" not in rules.selected(["NNL"])
    assert "NNL001" in rules.selected(["NNL001"])
    assert "NNL001" not in rules.selected(["NNL001"], ["NNL0"])


def test_a_rule_runs_only_for_the_versions_it_describes(monkeypatch):
    monkeypatch.setattr(rules.rule("NNL001"), "SINCE", (0, 5))
    assert rules.versions("NNL001") == "0.5+"
    assert codes(TWO_INVOKES, target_version=(0, 8)) == [(3, "NNL001")]
    assert codes(TWO_INVOKES, target_version=(0, 4)) == []


DEMO = """\
import pytest

with pytest.raises(RuntimeError):
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            model.lm_head.output.sum().backward()
        with tracer.invoke("the cat sat"):
            model.lm_head.output.sum().backward()
"""


def test_code_that_shows_the_error_on_purpose_is_not_reported_by_default():
    assert codes(DEMO) == []
    assert codes(DEMO, report_deliberate_errors=True) == [(6, "NNL001")]


def test_a_try_only_hides_what_its_handlers_catch():
    body = "".join("    " + line + "\n" for line in TWO_INVOKES.splitlines())
    caught = {"RuntimeError": [], "Exception": [], "(ValueError, RuntimeError)": [], "ValueError": [(4, "NNL001")]}
    for handler, expected in caught.items():
        assert codes(f"try:\n{body}except {handler}:\n    pass\n") == expected, handler
    assert codes(f"try:\n{body}except:\n    pass\n") == []
    assert codes(f"try:\n{body}finally:\n    pass\n") == [(4, "NNL001")]


def test_a_line_whose_comment_says_it_fails_is_a_demo():
    says = {"  # will throw an error": [], "  # raises RuntimeError": [], "  # RuntimeError here": [],
            "  # error!": [], "  # first invoke": [(3, "NNL001")], "  # compute the error": [(3, "NNL001")]}
    for comment, expected in says.items():
        source = TWO_INVOKES.replace(".backward()\n    with", f".backward(){comment}\n    with", 1)
        assert codes(source) == expected, comment
        assert codes(source, report_deliberate_errors=True) == [(3, "NNL001")]


def test_a_word_that_starts_with_noqa_is_not_a_noqa():
    line = "        model.lm_head.output.sum().backward()"
    assert codes(TWO_INVOKES.replace(line, line + "  # noqa-free zone", 1)) == [(3, "NNL001")]
    assert codes(TWO_INVOKES.replace(line, line + "  # noqa", 1)) == []
    assert codes(TWO_INVOKES.replace(line, line + "  # noqa: NNL001", 1)) == []
    assert codes(TWO_INVOKES.replace(line, line + "  # noqa:NNL101", 1)) == [(3, "NNL001")]
