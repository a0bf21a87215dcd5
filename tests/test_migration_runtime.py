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


def _old_python(program: Path) -> Path:
    minor = f"0.{program.name[2]}"  # v03_... -> 0.3
    python = ROOT / f".venv-nnsight-{minor}" / "bin" / "python"
    if not python.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{python} is missing: .ci/old-nnsight-venvs.sh builds it")
        pytest.skip(f"no nnsight {minor} venv: run .ci/old-nnsight-venvs.sh")
    return python


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    import torch

    sys.path.insert(0, str(ROOT / "tests"))
    import migration_runner

    path = tmp_path_factory.mktemp("weights") / "tiny_gpt2.pt"
    torch.manual_seed(0)
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=12, n_positions=32, n_embd=32, n_layer=2, n_head=2,
                        bos_token_id=1, eos_token_id=1, pad_token_id=1)
    torch.save(GPT2LMHeadModel(config).state_dict(), path)
    assert len(migration_runner.WORDS) + 2 == config.vocab_size
    return path


def _run(python: Path, program: Path, weights: Path, out: Path):
    import torch

    run = subprocess.run([str(python), str(RUNNER), str(program), str(weights), str(out)],
                         capture_output=True, text=True, timeout=600, cwd=str(program.parent))
    assert run.returncode == 0, f"{program.name} on {python}:\n{run.stderr[-3000:]}"
    return torch.load(out)


def _migrate(path: Path):
    return subprocess.run([sys.executable, "-m", "nnsight_lint", "migrate", "--to", "0.8", str(path)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("program", CASES, ids=[p.stem for p in CASES])
def test_migrated_program_saves_what_the_old_one_saved(program, weights, tmp_path):
    import torch

    before = _run(_old_python(program), program, weights, tmp_path / "before.pt")
    migrated = tmp_path / program.name
    shutil.copy(program, migrated)
    result = _migrate(migrated)
    assert result.returncode in (0, 1), result.stderr
    by_hand = program.with_name(program.stem + ".migrated.py")
    if by_hand.exists():
        # Not mechanical: the migration says what is left, and the hand-migrated program is equal.
        assert "need" in result.stderr and "a person" in result.stderr, result.stderr
        assert result.returncode == 1, result.stderr
        after_program = tmp_path / by_hand.name
        shutil.copy(by_hand, after_program)
        assert _migrate(after_program).returncode == 0, "the hand-migrated program is clean"
    else:
        assert result.returncode == 0, f"left for a person:\n{result.stdout}{result.stderr}"
        assert migrated.read_text() != program.read_text(), "the migration changed something"
        after_program = migrated
    after = _run(Path(sys.executable), after_program, weights, tmp_path / "after.pt")
    assert before.keys() == after.keys()
    for key in before:
        assert torch.allclose(before[key], after[key], atol=1e-6), key
