"""Proof by running: old-era nnsight programs (`tests/migration_programs/vNN_*.py`, in the shapes
real code has) run on their era's nnsight (0.3.7 / 0.4.11, venvs made by
`.ci/old-nnsight-venvs.sh`), then `nnsight-lint migrate --to 0.8` rewrites them and they run on
the installed 0.8.1: what they saved is equal (allclose), on the same tiny GPT-2 weights.

A program whose migration cannot be mechanical has a `<name>.migrated.py` next to it, written by
hand as the findings say: the tool's migration must leave a finding on it (a person's job), and
the hand-migrated program must give the same values.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "migration_programs"
RUNNER = ROOT / "tests" / "migration_runner.py"
CASES = sorted(p for p in PROGRAMS.glob("v0*.py") if not p.name.endswith(".migrated.py"))


def _minor(program: Path) -> str:
    return f"0.{program.name[2]}"  # v03_... -> 0.3


def _old_python(minor: str) -> Path:
    python = ROOT / f".venv-nnsight-{minor}" / "bin" / "python"
    if not python.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{python} is missing: .ci/old-nnsight-venvs.sh builds it")
        pytest.skip(f"no nnsight {minor} venv: run .ci/old-nnsight-venvs.sh")
    return python


def _weights(path: Path) -> None:
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    config = GPT2Config(vocab_size=12, n_positions=32, n_embd=32, n_layer=2, n_head=2,
                        bos_token_id=1, eos_token_id=1, pad_token_id=1)
    torch.save(GPT2LMHeadModel(config).state_dict(), path)


def _run_all(python: Path, weights: Path, jobs) -> None:
    """Run (program, out) pairs in one process of `python`."""
    argv = [str(python), str(RUNNER), str(weights)] + [str(p) for job in jobs for p in job]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=str(ROOT))
    assert run.returncode == 0, f"on {python}:\n{run.stderr[-3000:]}"


def _migrate(path: Path):
    return subprocess.run([sys.executable, "-m", "nnsight_lint", "migrate", "--to", "0.8", str(path)],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every program before (on its era's nnsight) and after (on 0.8.1): {stem: (before, after,
    the migration's result, the text it left)}; one process per nnsight."""
    import torch

    work = tmp_path_factory.mktemp("migration")
    weights = work / "tiny_gpt2.pt"
    _weights(weights)
    befores, afters, results = {}, [], {}
    for program in CASES:
        befores.setdefault(_minor(program), []).append((program, work / f"{program.stem}.before.pt"))
        migrated = work / program.name
        shutil.copy(program, migrated)
        results[program.stem] = (_migrate(migrated), migrated.read_text())
        by_hand = program.with_name(program.stem + ".migrated.py")
        after = migrated
        if by_hand.exists():
            after = work / by_hand.name
            shutil.copy(by_hand, after)
        afters.append((after, work / f"{program.stem}.after.pt"))
    for minor, jobs in befores.items():
        _run_all(_old_python(minor), weights, jobs)
    _run_all(Path(sys.executable), weights, afters)
    return {p.stem: (torch.load(work / f"{p.stem}.before.pt"), torch.load(work / f"{p.stem}.after.pt"),
                     *results[p.stem]) for p in CASES}


@pytest.mark.parametrize("program", CASES, ids=[p.stem for p in CASES])
def test_migrated_program_saves_what_the_old_one_saved(program, runs, tmp_path):
    import torch

    before, after, result, migrated = runs[program.stem]
    assert result.returncode in (0, 1), result.stderr
    by_hand = program.with_name(program.stem + ".migrated.py")
    if by_hand.exists():
        # Not mechanical: the migration says what is left, and the hand-migrated program is equal.
        assert result.returncode == 1 and "a person" in result.stderr, result.stderr
        checked = tmp_path / by_hand.name
        shutil.copy(by_hand, checked)
        assert _migrate(checked).returncode == 0, "the hand-migrated program is clean"
    else:
        assert result.returncode == 0, f"left for a person:\n{result.stdout}{result.stderr}"
        assert migrated != program.read_text(), "the migration changed something"
    assert before.keys() == after.keys()
    for key in before:
        assert torch.allclose(before[key], after[key], atol=1e-6), key
