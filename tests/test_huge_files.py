"""A huge file is checked piece by piece (`slicing.pieces`), so memory follows one piece's tree,
not the file's; the findings are the file's, as a whole-file check gives them."""
from __future__ import annotations

import pytest

from nnsight_lint.engine import slicing
from nnsight_lint.engine.lint import lint_source

HEADER = '''"""Many traces in one module."""
import torch
from torch.autograd import grad as take_grad

KEEP = False


def loss_of(module):
    return module.output.sum()

'''
TRACE = '''
with model.trace() as tracer_{i}:  # trace {i}
    with tracer_{i}.invoke("prompt {i}"):
        hidden_{i} = model.transformer.h[{layer}].output
        loss_of(model.lm_head).backward(retain_graph=KEEP)
    with tracer_{i}.invoke("other {i}"):
        take_grad(model.lm_head.output.sum(), model.lm_head.weight)
        hidden_{i}.grad.save()  # noqa: NNL002
'''
SAVED_AT_MODULE_LEVEL = "\nlast = model.lm_head.output.save()\n"


def program(traces: int) -> str:
    return HEADER + "".join(TRACE.format(i=i, layer=i % 2) for i in range(traces)) + SAVED_AT_MODULE_LEVEL


def findings(text):
    return [(d.code, d.start, d.end, d.message, d.fix) for d in lint_source(text, "huge.py")]


def test_pieces_give_the_whole_files_findings(monkeypatch):
    text = program(40)
    whole = findings(text)
    assert {code for code, *_ in whole} == {"NNL001", "NNL105"}
    assert len(whole) == 41  # one NNL001 a trace (the helper's backward), one NNL105
    monkeypatch.setattr(slicing, "PIECE_SIZE", 2_000)
    cut = slicing.pieces(text, __import__("nnsight_lint.engine.lint", fromlist=["x"])._trace_pattern_text(("trace",)))
    assert cut is not None and len(cut) > 5
    assert all(piece.startswith('"""Many traces') and "def loss_of" in piece for piece, _ in cut)
    assert findings(text) == whole


def test_a_small_file_is_one_piece():
    opener = __import__("nnsight_lint.engine.lint", fromlist=["x"])._trace_pattern_text(("trace",))
    assert slicing.pieces(program(3), opener) is None


@pytest.mark.parametrize("size", [2_000, 5_000])
def test_piece_lines_are_the_files_lines(size):
    text = program(30)
    opener = __import__("nnsight_lint.engine.lint", fromlist=["x"])._trace_pattern_text(("trace",))
    cut = slicing.pieces(text, opener, size)
    file_lines = text.split("\n")
    for piece, lines in cut:
        assert piece.split("\n")[: len(lines)] == [file_lines[n - 1] for n in lines]
