"""The fix is right at run time: fixed by the real CLI, programs run clean under real nnsight and
every invoke gets the gradient it would get alone.

One process, one tiny model (built once). The CLI runs as a real process on copies in a temporary
directory, once per directory; the fixed files then run here, from their real paths.

- Every marked `rules/NNL001` case, fixed, runs clean.
- Every purpose-written multi-invoke program below fails unfixed with torch's freed-graph error,
  and fixed, saves for each invoke the gradient a single-prompt trace of the same prompt gives
  (relative error < 1e-5), which differs from every other invoke's reference.
- Every layout fixture (`tests/fix_layouts/*.in.py`) fails unfixed and runs clean fixed.

Per-invoke gradients on nnsight 0.8.1: `with loss.backward(): g = hs.grad.save()` serves the
gradient of the invoke's own slice of the batched activation `hs` (nnsight hooks the batch base
and cuts the invoke's rows back out); `torch.autograd.grad(loss, weight)` returns the invoke's own
weight gradient; a plain `.backward()` accumulates into `weight.grad`, so each invoke saves the
running total and its own share is the difference from the total saved by the backward that ran
just before it.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
import torch

from tests.case_runner import run_case

ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = ROOT / "rules" / "NNL001"
LAYOUTS_DIR = Path(__file__).resolve().parent / "fix_layouts"
FREED_GRAPH = "Trying to backward through the graph a second time"
MARKER = re.compile(r"#\s*expect:\s*NNL001\s*$", re.MULTILINE)
TOLERANCE = 1e-5

pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nnsight_lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def fixed_copy(tmp_dir: Path, files: Dict[str, str]) -> Tuple[Path, subprocess.CompletedProcess]:
    """Write `files` (name -> text) into tmp_dir/fixed and run `check --fix` on that directory."""
    target = tmp_dir / "fixed"
    target.mkdir()
    for name, text in files.items():
        (target / name).write_text(text, encoding="utf-8")
    return target, cli("check", "--fix", ".", cwd=target)


def execute(path: Path, model) -> dict:
    """Run a program from its real path like `run_case`, and return its namespace."""
    namespace = {"__name__": "__main__", "__file__": str(path), "model": model}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    return namespace


# -- the corpus --------------------------------------------------------------------------------------

MARKED = [p for p in sorted(CASES_DIR.glob("*.py")) if MARKER.search(p.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def fixed_corpus(tmp_path_factory) -> Path:
    directory, result = fixed_copy(
        tmp_path_factory.mktemp("corpus"), {p.name: p.read_text(encoding="utf-8") for p in MARKED}
    )
    assert result.returncode == 0, result.stdout + result.stderr
    markers = sum(len(MARKER.findall(p.read_text(encoding="utf-8"))) for p in MARKED)
    assert result.stderr.splitlines()[-1] == f"Fixed {markers} problems, 0 remaining."
    recheck = cli("check", ".", cwd=directory)
    assert (recheck.returncode, recheck.stdout) == (0, ""), recheck.stdout
    return directory


@pytest.mark.parametrize("case", MARKED, ids=[p.stem for p in MARKED])
def test_fixed_corpus_case_runs_clean(case: Path, fixed_corpus: Path, model) -> None:
    fixed = fixed_corpus / case.name
    assert fixed.read_bytes() != case.read_bytes()
    with pytest.raises(RuntimeError, match=FREED_GRAPH):
        run_case(case, model)  # the original really needs the fix
    model.zero_grad(set_to_none=True)
    run_case(fixed, model)


# -- gradients ---------------------------------------------------------------------------------------

_ACTIVATIONS = {
    "wte": lambda m: m.transformer.wte.output,
    "h0": lambda m: m.transformer.h[0].output,
    "h1": lambda m: m.transformer.h[1].output,
    "lm_head": lambda m: m.lm_head.output,
}
WEIGHT = "model.transformer.h[1].mlp.c_fc.weight"


@dataclass(frozen=True)
class Saved:
    """One invoke's saved gradient: `name` in the program, of `target` for `prompt`'s `loss_at` loss.

    `target` is an activation key of _ACTIVATIONS or "weight"; `total_after` names the running
    weight.grad total saved by the backward that ran before this one (plain `.backward()` programs).
    """

    name: str
    prompt: str
    loss_at: str
    target: str
    total_after: str = ""


def reference(model, saved: Saved) -> torch.Tensor:
    """The gradient for `saved.prompt` traced alone, read the same way."""
    model.zero_grad(set_to_none=True)
    if saved.target == "weight":
        with model.trace(saved.prompt):
            loss = _ACTIVATIONS[saved.loss_at](model).sum()
            (gradient,) = torch.autograd.grad(loss, model.transformer.h[1].mlp.c_fc.weight)
            gradient = gradient.save()
    else:
        with model.trace(saved.prompt):
            activation = _ACTIVATIONS[saved.target](model)
            loss = _ACTIVATIONS[saved.loss_at](model).sum()
            with loss.backward():
                gradient = activation.grad.save()
    model.zero_grad(set_to_none=True)
    return gradient


def _with_form(prompt: str, loss_at: str, target: str, name: str, marked: bool) -> str:
    marker = "  # expect: NNL001" if marked else ""
    return (
        f'    with tracer.invoke("{prompt}"):\n'
        f"        activation = {_SOURCE[target]}\n"
        f"        loss = {_SOURCE[loss_at]}.sum()\n"
        f"        with loss.backward():{marker}\n"
        f"            {name} = activation.grad.save()\n"
    )


_SOURCE = {
    "wte": "model.transformer.wte.output",
    "h0": "model.transformer.h[0].output",
    "h1": "model.transformer.h[1].output",
    "lm_head": "model.lm_head.output",
}


def _program(doc: str, invokes: List[str]) -> str:
    return f'"""{doc}"""\nwith model.trace() as tracer:\n' + "".join(invokes)


PROGRAMS: Dict[str, Tuple[str, List[Saved]]] = {
    "two_invokes_lm_head_loss": (
        _program(
            "Two invokes, each reads h[1]'s gradient of its own lm_head loss.",
            [
                _with_form("hello world", "lm_head", "h1", "first", True),
                _with_form("the cat", "lm_head", "h1", "second", False),
            ],
        ),
        [Saved("first", "hello world", "lm_head", "h1"), Saved("second", "the cat", "lm_head", "h1")],
    ),
    "three_invokes_lm_head_loss": (
        _program(
            "Three invokes, each reads h[0]'s gradient of its own lm_head loss.",
            [
                _with_form("hello world", "lm_head", "h0", "first", True),
                _with_form("the cat", "lm_head", "h0", "second", True),
                _with_form("a dog", "lm_head", "h0", "third", False),
            ],
        ),
        [
            Saved("first", "hello world", "lm_head", "h0"),
            Saved("second", "the cat", "lm_head", "h0"),
            Saved("third", "a dog", "lm_head", "h0"),
        ],
    ),
    "two_invokes_block_loss": (
        _program(
            "Two invokes, each reads h[0]'s gradient of its own h[1] loss.",
            [
                _with_form("sat on", "h1", "h0", "first", True),
                _with_form("the mat", "h1", "h0", "second", False),
            ],
        ),
        [Saved("first", "sat on", "h1", "h0"), Saved("second", "the mat", "h1", "h0")],
    ),
    "order_block_loss_runs_before_lm_head_loss": (
        _program(
            "The h[1] loss of the second invoke runs before the lm_head loss of the first: it is the one\n"
            "that needs `retain_graph=True`.",
            [
                _with_form("hello world", "lm_head", "h1", "first", False),
                _with_form("the cat", "h1", "h0", "second", True),
            ],
        ),
        [Saved("first", "hello world", "lm_head", "h1"), Saved("second", "the cat", "h1", "h0")],
    ),
    "order_three_invokes_in_reverse": (
        _program(
            "Losses at lm_head, h[1], h[0] in invoke order run in the reverse order: the last invoke's\n"
            "backward runs first, the first invoke's last.",
            [
                _with_form("hello world", "lm_head", "h1", "first", False),
                _with_form("the cat", "h1", "h0", "second", True),
                _with_form("a dog", "h0", "wte", "third", True),
            ],
        ),
        [
            Saved("first", "hello world", "lm_head", "h1"),
            Saved("second", "the cat", "h1", "h0"),
            Saved("third", "a dog", "h0", "wte"),
        ],
    ),
    "autograd_grad_of_a_weight": (
        (
            '"""Two invokes take `torch.autograd.grad` of their own lm_head loss for one weight."""\n'
            "import torch\n\n"
            "with model.trace() as tracer:\n"
            '    with tracer.invoke("hello world"):\n'
            f"        (first,) = torch.autograd.grad(model.lm_head.output.sum(), {WEIGHT})  # expect: NNL001\n"
            "        first = first.save()\n"
            '    with tracer.invoke("the cat"):\n'
            f"        (second,) = torch.autograd.grad(model.lm_head.output.sum(), {WEIGHT})\n"
            "        second = second.save()\n"
        ),
        [Saved("first", "hello world", "lm_head", "weight"), Saved("second", "the cat", "lm_head", "weight")],
    ),
    "plain_backward_three_invokes": (
        '"""Three invokes call a plain `.backward()`; each saves the weight gradient total so far."""\n'
        "with model.trace() as tracer:\n"
        + "".join(
            f'    with tracer.invoke("{prompt}"):\n'
            f"        model.lm_head.output.sum().backward(){marker}\n"
            f"        {name} = {WEIGHT}.grad.clone().save()\n"
            for prompt, name, marker in [
                ("hello world", "total_1", "  # expect: NNL001"),
                ("the cat", "total_2", "  # expect: NNL001"),
                ("a dog", "total_3", ""),
            ]
        ),
        [
            Saved("total_1", "hello world", "lm_head", "weight"),
            Saved("total_2", "the cat", "lm_head", "weight", total_after="total_1"),
            Saved("total_3", "a dog", "lm_head", "weight", total_after="total_2"),
        ],
    ),
    "helper_with_form_called_per_invoke": (
        (
            '"""A same-file helper reads a gradient in `with loss.backward():`; two invokes call it."""\n\n\n'
            "def gradient_of(activation, loss):\n"
            "    with loss.backward():  # expect: NNL001\n"
            "        gradient = activation.grad.save()\n"
            "    return gradient\n\n\n"
            "with model.trace() as tracer:\n"
            '    with tracer.invoke("hello world"):\n'
            "        first = gradient_of(model.transformer.h[1].output, model.lm_head.output.sum())\n"
            '    with tracer.invoke("the cat"):\n'
            "        second = gradient_of(model.transformer.h[1].output, model.lm_head.output.sum())\n"
        ),
        [Saved("first", "hello world", "lm_head", "h1"), Saved("second", "the cat", "lm_head", "h1")],
    ),
}


@pytest.fixture(scope="module")
def fixed_programs(tmp_path_factory) -> Path:
    directory, result = fixed_copy(
        tmp_path_factory.mktemp("programs"), {f"{name}.py": source for name, (source, _) in PROGRAMS.items()}
    )
    assert result.returncode == 0, result.stdout + result.stderr
    markers = sum(len(MARKER.findall(source)) for source, _ in PROGRAMS.values())
    assert result.stderr.splitlines()[-1] == f"Fixed {markers} problems, 0 remaining."
    return directory


def relative_error(value: torch.Tensor, expected: torch.Tensor) -> float:
    return float((value - expected).norm() / expected.norm())


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_fixed_program_gives_each_invoke_its_own_gradient(name: str, fixed_programs: Path, tmp_path, model) -> None:
    source, saved = PROGRAMS[name]
    fixed = fixed_programs / f"{name}.py"
    # The fix went exactly where the markers are, and the unfixed program really fails.
    before, after = source.splitlines(), fixed.read_text(encoding="utf-8").splitlines()
    assert len(after) == len(before)
    changed = [i for i, (old, new) in enumerate(zip(before, after)) if old != new]
    assert changed == [i for i, line in enumerate(before) if MARKER.search(line)]
    assert all(after[i].count("retain_graph=True") == 1 for i in changed)
    original = tmp_path / f"{name}.py"
    original.write_text(source, encoding="utf-8")
    with pytest.raises(RuntimeError, match=FREED_GRAPH):
        execute(original, model)
    model.zero_grad(set_to_none=True)

    namespace = execute(fixed, model)
    gradients = {
        s.name: namespace[s.name] - namespace[s.total_after] if s.total_after else namespace[s.name] for s in saved
    }
    references = {s.name: reference(model, s) for s in saved}
    for s in saved:
        value = gradients[s.name]
        assert value.shape == references[s.name].shape
        assert relative_error(value, references[s.name]) < TOLERANCE, s
        for other in saved:
            if other is not s and references[other.name].shape == value.shape:
                assert relative_error(value, references[other.name]) > 1e-2, (s, other)


# -- layout fixtures ---------------------------------------------------------------------------------

LAYOUTS = sorted(LAYOUTS_DIR.glob("*.in.py"))


@pytest.fixture(scope="module")
def fixed_layouts(tmp_path_factory) -> Path:
    directory, result = fixed_copy(
        tmp_path_factory.mktemp("layouts"),
        {p.name.replace(".in.py", ".py"): p.read_text(encoding="utf-8") for p in LAYOUTS},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return directory


@pytest.mark.parametrize("layout", LAYOUTS, ids=[p.name[: -len(".in.py")] for p in LAYOUTS])
def test_layout_fixture_fails_unfixed_and_runs_fixed(layout: Path, fixed_layouts: Path, model) -> None:
    fixed = fixed_layouts / layout.name.replace(".in.py", ".py")
    assert fixed.read_bytes() == layout.with_name(layout.name.replace(".in.py", ".out.py")).read_bytes()
    with pytest.raises(RuntimeError, match=FREED_GRAPH):
        run_case(layout, model)
    model.zero_grad(set_to_none=True)
    run_case(fixed, model)
