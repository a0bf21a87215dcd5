"""The fuzz suite, CI-sized: generated programs through the library, the CLI and torch.

Inputs come from hypothesmith (arbitrary Python, alone and spliced into a trace) and from
tests/nnsight_programs.py (nnsight-shaped programs: every backward form and retain spelling, loops,
branches, helpers, odd layouts, LF/CRLF/CR, UTF-8/BOM/latin-1). The properties are in
tests/fuzz_properties.py; scripts/fuzz.py runs them with many more examples and reports the numbers
(docs/reliability.md, "The fuzz suite").

Every test here is derandomized (the same examples on every run, so CI is reproducible) and has no
deadline (the first example pays for imports and, in the differential test, the tiny model).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import nnsight_programs as generated
from tests.fuzz_properties import check_cli_tree, check_fix_against_reference, check_fix_properties, judge
from tests.nnsight_programs import LAYOUT_STYLES, Program

# Health checks: generating whole programs is slow and large by design.
SLOW_INPUTS = [HealthCheck.too_slow, HealthCheck.data_too_large]


# Generated programs are odd on purpose (`"a"()`): the SyntaxWarnings compiling them gives are expected.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")


def ci(examples: int) -> settings:
    return settings(
        max_examples=examples, deadline=None, derandomize=True, database=None, suppress_health_check=SLOW_INPUTS
    )


# --- the library: lint, fix, fix again ------------------------------------------------------------------


@ci(40)
@given(generated.python_sources())
def test_hypothesmith_programs(source: str) -> None:
    check_fix_properties(source.encode("utf-8"))


@ci(30)
@given(generated.python_in_traces())
def test_hypothesmith_code_inside_a_trace(source: str) -> None:
    found = check_fix_properties(source.encode("utf-8"))
    assert found, "the trace around the generated code has two backwards to report"


@ci(10)
@given(generated.python_in_traces(nodes=True))
def test_hypothesmith_libcst_nodes_inside_a_trace(source: str) -> None:
    check_fix_properties(source.encode("utf-8"))


@ci(60)
@given(generated.files)
def test_nnsight_programs(data: bytes) -> None:
    check_fix_properties(data)


def _one_of_each(number: int, form: str, retain) -> bytes:
    """`one_of_each` with the layout, line ending and encoding cycling with `number`."""
    program = generated.one_of_each(form, retain, LAYOUT_STYLES[number % len(LAYOUT_STYLES)])
    kinds = generated._file_kinds()
    return generated.encoded(program.render(), *kinds[number % len(kinds)])


def test_every_form_and_retain_spelling() -> None:
    """Not left to chance: each backward form with each retain spelling, flagged exactly when the
    spelling does not retain, and through the fix properties."""
    for number, (form, retain) in enumerate(generated.EVERY_FORM_AND_SPELLING):
        data = _one_of_each(number, form, retain)
        found = [d for d in check_fix_properties(data) if d.code == "NNL001"]
        assert bool(found) != retain.retains, (form, retain, data)


# --- the CLI on a small tree ------------------------------------------------------------------------------


@ci(2)
@given(st.lists(generated.files, min_size=6, max_size=8), generated.python_sources())
def test_cli_jobs_cache_json_and_fix_agree(files, python: str) -> None:
    with tempfile.TemporaryDirectory() as root:
        check_cli_tree(Path(root), [*files, python.encode("utf-8")])


# --- torch: the linter against the real run ------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny():
    from tests.tiny_model import tiny_model

    return tiny_model()


@pytest.fixture(scope="module")
def run_directory(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz_programs")


@ci(20)
@given(generated.programs(max_flags=1, max_steps=2, max_traces=1))
def test_nnl001_flags_exactly_the_backwards_torch_needs_retained(tiny, run_directory, program: Program) -> None:
    """Run for real: the fixed program runs clean, and each flagged call's fix is needed."""
    text = program.render()
    verdict = judge(text, program.flags, len(list(program.backwards())), run_directory, tiny)
    assert verdict.agrees, f"{verdict.problem}\n{text}"


FIX_PROGRAMS = list(generated.every_fix_program())


@pytest.fixture(scope="module")
def one_thread():
    """The tiny model runs many short traces: torch's thread pool only adds contention (7x on 2 cores)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("number", range(len(FIX_PROGRAMS)), ids=[str(p) for p in FIX_PROGRAMS])
def test_every_fix_computes_what_the_hand_fixed_program_does(tiny, run_directory, one_thread, number) -> None:
    """Every fixable rule in every branch shape: fixed as a file and as a notebook (cell by cell), the
    program gives the hand-fixed reference's RESULT under every FLAG value, on real nnsight. The fixed
    cells run one by one for every third program (their text is the fixed file's for all)."""
    check_fix_against_reference(FIX_PROGRAMS[number], run_directory, tiny, run_notebook=number % 3 == 0)


# --- known failures: one example each while they are open ------------------------------------------------


def test_cr_only_file_with_a_coding_cookie_is_checked() -> None:
    """Found by the fuzz suite: the `# coding:` line of a CR-only file is a line of its own."""
    data = generated.encoded(generated.TWO_INVOKES.format(body='        note = "é"\n'), "\r", "latin-1")
    assert [d.code for d in check_fix_properties(data)] == ["NNL001"]


@pytest.mark.xfail(reason=generated.OPEN_ISSUES["lone backslash line"], strict=False)
def test_block_opening_with_a_lone_backslash_is_checked() -> None:
    data = generated.TWO_INVOKES.format(body="        \\\n").encode()
    assert [d.code for d in check_fix_properties(data)] == ["NNL001"]
