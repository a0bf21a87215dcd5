"""Rule cases that are notebooks (`rules/<CODE>/*.ipynb`: what only a cell magic shows, NNL208): on
each, the findings equal the `# expect:` markers by (cell, line), and the notebook runs in a real
Jupyter kernel (nbclient + ipykernel, the tiny model bound to `model` by a cell put in front) as its
first cell's `# runtime-raises:` header says, or clean."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_notebooks import SETUP, KernelRunner, code, code_sources, expected_in_cells, found_in_cells
from tests.test_rule_cases_runtime import runtime_raises

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "rules").glob("NNL*/*.ipynb"))
IDS = [f"{case.parent.name}/{case.stem}" for case in CASES]


def test_the_notebook_cases_have_bad_ones_and_look_alikes():
    marked = [case for case in CASES if expected_in_cells(case.read_text(encoding="utf-8"))]
    assert len(marked) >= 6 and len(CASES) - len(marked) >= 4


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_findings_equal_markers_by_cell(case):
    assert found_in_cells(case) == expected_in_cells(case.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def kernel():
    pytest.importorskip("ipykernel")
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    client = NotebookClient(nbformat.v4.new_notebook(), timeout=600, kernel_name="python3", allow_errors=True)
    with client.setup_kernel():
        yield KernelRunner(client)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_runs_in_a_kernel_as_stated(case, kernel, tmp_path):
    text = case.read_text(encoding="utf-8")
    document = json.loads(text)
    document["cells"].insert(0, code(SETUP))
    runnable = tmp_path / case.name
    runnable.write_text(json.dumps(document), encoding="utf-8")
    expected = runtime_raises(code_sources(text)[0])
    assert (expected is None) == (not expected_in_cells(text)), "a marked case states its error, a look-alike none"
    error = kernel.errors(runnable)
    assert (error is None) if expected is None else (error is not None and expected in error), error
