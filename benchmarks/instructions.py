"""Machine instructions, not seconds: `nnsight-lint check --no-cache --jobs 1` next to the bare
libcst parse loop (`bench_lint.LIBCST_LOOP`) over the same files, each counted by valgrind's
cachegrind.

    .venv/bin/python benchmarks/instructions.py DIR [--baseline PATH]

A count does not move with the machine's load (this machine's wall times move by up to 1.5x
within the hour, more than most changes weigh), and it repeats to a ten-thousandth with the hash
seed fixed: a change's effect is read off one run of each. It misses what cache misses and branch
mispredictions cost, so the ratio that a goal is judged by stays `bench_lint.py`'s, in seconds;
this one says which way a change went and by how much. `--baseline PATH`: also count the linter
from another checkout of the repository (`git worktree add`), for a before/after pair. Counting
makes a run 30-50x slower: use a corpus of some 80 files. Each checkout's bytecode is compiled
first, as `bench_lint.py` does: under PYTHONDONTWRITEBYTECODE an editable install would compile
every module on every run (some 0.9 G instructions on 80 files).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_lint import LIBCST_LOOP  # noqa: E402

_REFS = re.compile(rb"I\s+refs:\s+([\d,]+)")


def instructions(command: List[str], pythonpath: Optional[str] = None) -> int:
    """The instructions `command` ran, its children not followed (a `--jobs 1` run has none)."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # a set's or dict's order moves the count a little
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *command], capture_output=True, env=env, cwd=tempfile.gettempdir())
    found = _REFS.search(done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count for {' '.join(command)}:\n{done.stderr.decode()[-2000:]}")
    return int(found.group(1).replace(b",", b""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--baseline", help="another checkout of the repository, counted too")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    corpus = str(args.corpus.resolve())
    lint = [sys.executable, "-m", "nnsight_lint", "check", "--no-cache", "--jobs", "1", "--quiet", corpus]
    for checkout in filter(None, (str(HERE.parent), args.baseline)):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(checkout) / "nnsight_lint")], check=True)
    loop = instructions([sys.executable, "-c", LIBCST_LOOP, corpus])
    rows = [("libcst parse loop", loop), ("nnsight-lint --jobs 1", instructions(lint, str(HERE.parent)))]
    if args.baseline:
        rows.append((f"nnsight-lint --jobs 1 at {args.baseline}", instructions(lint, args.baseline)))
    print("| command | instructions | x loop |\n|---|---:|---:|")
    for label, count in rows:
        print(f"| {label} | {count:,} | {count / loop:.3f} |")


if __name__ == "__main__":
    main()
