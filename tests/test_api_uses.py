"""Which receivers `analysis/api_uses.py` gives a role as the walk goes: roles bound mid-file (an
Envoy alias) count from there on, a helper's parameters only inside its body."""
from __future__ import annotations

import textwrap

import libcst as cst

from nnsight_lint.analysis import build_file_model
from nnsight_lint.analysis.api_uses import api_uses

# `.before()` ... `.aliased()`: which of the four reads of `blocks.output` have a role.
SOURCE = """
    from nnsight import LanguageModel

    model = LanguageModel("gpt2")
    blocks.output.before()

    def helper(blocks):
        blocks.output.in_helper()

    with model.trace("hello") as tracer:
        helper(model)
    blocks.output.after_helper()
    blocks = model.transformer.h
    blocks.output.aliased()
"""
CALLED = ("before", "in_helper", "after_helper", "aliased")


def called_on_an_output(model, memo=None):
    return [use.name for use in api_uses(model, set(), memo)
            if use.kind == "member" and use.role == "output" and use.name in CALLED]


def test_a_parameter_has_its_role_in_its_body_and_an_alias_from_its_binding_on():
    model = build_file_model(cst.parse_module(textwrap.dedent(SOURCE)))
    assert called_on_an_output(model) == ["in_helper", "aliased"]
    memo: dict = {}
    assert called_on_an_output(model, memo) == ["in_helper", "aliased"]  # the language server's path
    assert len(memo) == len(model.module.body)
    assert called_on_an_output(model, memo) == ["in_helper", "aliased"]  # every statement from the memo


def test_a_wrapper_the_walk_steps_through_holds_code_in_that_field_alone():
    """The walk reads a wrapper's one field instead of walking the wrapper: every other field it has
    must carry no code, else what it holds would be skipped (a libcst release may add one)."""
    from nnsight_lint.analysis.api_uses import WRAPPERS
    from nnsight_lint.analysis.tree import code_fields

    for kind, field in WRAPPERS.items():
        assert set(code_fields(kind)) - {field} <= {"star"}, kind  # `Arg.star`, `Index.star`: "*" or ""
    assert code_fields(cst.Attribute) == ("value",)  # a chain's inner attributes: walked down the same way
