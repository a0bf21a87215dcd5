"""How fast is nnsight-lint next to its peers, on the same files, in one run?

    .venv/bin/python benchmarks/bench_lint.py [--runs 5] [--heavy-files 200] [--slow-runs 1]

Installs nothing: the peers (ruff, flake8, fixit, libcst) come from the environment that runs
this script; a missing one is skipped. Three corpora, built in a temporary directory:

1. the installed `transformers` package source tree (copied);
2. a deterministic nnsight-heavy corpus from `gen_corpus.py` (traces, invokes, backwards), with the
   split of one file's time between reading, the pre-filter, slicing, parsing, the analysis model,
   the rules and positions (`phases.py`);
3. a second nnsight corpus from `gen_corpus_varied.py` (files of 20 to 900 lines, 1 to 12 invokes,
   three architectures, notebooks, files without nnsight), so that no number is tuned to one shape.

nnsight-lint's bytecode is compiled first (`compileall`), as `pip install` does for a wheel: this
environment sets PYTHONDONTWRITEBYTECODE, so an editable install would otherwise compile every
module on every run.

Every command runs `--runs` times (flake8 and fixit `--slow-runs` times; fixit and the libcst loop
skip the transformers tree unless asked), alternating with the others so that machine noise hits
all of them alike. Each run is measured from outside (`os.wait4`): wall time, CPU time (user + system,
the command's worker processes included) and peak resident memory of its largest process.
The table shows medians. A goal's ratio is the median of the runs' own ratios (the two commands of
one run ran minutes apart at most, so the machine's drift through the hour cancels within a run),
and whether the goal holds.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent

# The bare parse of the same Python: a notebook's code cells joined (magics left out), as the
# linter sees them.
LIBCST_LOOP = (
    "import json, sys, pathlib, libcst\n"
    "for p in sorted(pathlib.Path(sys.argv[1]).rglob('*')):\n"
    "    try:\n"
    "        if p.suffix == '.py':\n"
    "            libcst.parse_module(p.read_bytes())\n"
    "        elif p.suffix == '.ipynb':\n"
    "            cells = json.loads(p.read_text())['cells']\n"
    "            code = [''.join(c['source']) for c in cells if c['cell_type'] == 'code']\n"
    "            libcst.parse_module('\\n'.join(l for l in '\\n'.join(code).splitlines()\n"
    "                                            if not l.startswith(('%', '!'))) + '\\n')\n"
    "    except Exception:\n"
    "        pass\n"
)


def tool(name: str):
    found = BIN / name
    return str(found) if found.exists() else shutil.which(name)


def measure(command, cwd):
    """(wall seconds, cpu seconds, peak MiB) of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def commands(corpus: Path, cache_dir: Path):
    nnl, ruff, flake8, fixit = tool("nnsight-lint"), tool("ruff"), tool("flake8"), tool("fixit")
    check = [nnl, "check", "--quiet", "--exit-zero"]
    table = {
        "nnsight-lint (no cache)": check + ["--no-cache", str(corpus)],
        "nnsight-lint --jobs 1 (no cache)": check + ["--no-cache", "--jobs", "1", str(corpus)],
        "nnsight-lint (cold cache)": check + ["--cache-dir", str(cache_dir), str(corpus)],
        "nnsight-lint (warm cache)": check + ["--cache-dir", str(cache_dir), str(corpus)],
        "libcst parse loop (1 process)": [sys.executable, "-c", LIBCST_LOOP, str(corpus)],
    }
    if ruff:
        table["ruff --select B006"] = [ruff, "check", "--no-cache", "--isolated", "--select", "B006",
                                       "--exit-zero", "-q", str(corpus)]
    if flake8:
        table["flake8 --select E9"] = [flake8, "--isolated", "--select", "E9", "--exit-zero", str(corpus)]
    if fixit:
        table["fixit (1 rule)"] = [fixit, "--rules", "fixit.rules.no_redundant_fstring", "lint", str(corpus)]
    return table


SLOW = ("flake8", "fixit")  # peers that take minutes on a big tree: fewer runs


def run_corpus(name: str, corpus: Path, runs: int, slow_runs: int, skip=()):
    cache_dir = corpus.parent / f"{corpus.name}-cache"
    table = {label: command for label, command in commands(corpus, cache_dir).items()
             if not label.startswith(tuple(skip))}
    samples = {label: [] for label in table}
    for run in range(runs):
        for label, command in table.items():
            if label.startswith(SLOW) and run >= slow_runs:
                continue
            if label.endswith("(cold cache)"):
                shutil.rmtree(cache_dir, ignore_errors=True)
            samples[label].append(measure(command, corpus.parent))
    medians = {
        label: tuple(statistics.median(s[i] for s in rows) for i in range(3)) for label, rows in samples.items() if rows
    }
    files = sum(1 for _ in corpus.rglob("*.py"))
    print(f"\n## {name}: {files} files; {runs} alternating runs, {slow_runs} of {', '.join(SLOW)}\n")
    print("| command | wall s | cpu s | peak MiB |")
    print("|---|---:|---:|---:|")
    for label, (wall, cpu, peak) in medians.items():
        print(f"| {label} | {wall:.3f} | {cpu:.3f} | {peak:.0f} |")
    return samples


def ratio(samples, numerator: str, denominator: str, figure: int = 0) -> float:
    """The median over runs of one run's `numerator` / `denominator` (`figure`: 0 wall, 2 peak)."""
    pairs = zip(samples[numerator], samples[denominator])
    return statistics.median(a[figure] / b[figure] for a, b in pairs)


def ratio_line(goal: str, value: float, limit: float) -> str:
    return f"- {goal}: {value:.2f}x (goal <= {limit}x) {'PASS' if value <= limit else 'MISS'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--heavy-files", type=int, default=200)
    parser.add_argument("--slow-runs", type=int, default=1, help="runs of the slow peers (flake8, fixit)")
    parser.add_argument("--all-peers-on-transformers", action="store_true",
                        help="also run fixit and the libcst loop over the transformers tree (tens of minutes)")
    args = parser.parse_args()

    # Found, not imported: a child's peak memory counts what it inherits from this process before
    # exec, so this process stays small.
    transformers_dir = Path(importlib.util.find_spec("transformers").submodule_search_locations[0])

    print(f"# nnsight-lint benchmark, {time.strftime('%Y-%m-%d')}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"{platform.system()} {platform.release()}")
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        tree = scratch / "transformers"
        shutil.copytree(transformers_dir, tree, ignore=shutil.ignore_patterns("__pycache__"))
        heavy, varied = scratch / "nnsight_heavy", scratch / "nnsight_varied"
        subprocess.run([sys.executable, str(HERE / "gen_corpus.py"), str(heavy), "--files", str(args.heavy_files)],
                       check=True)
        subprocess.run([sys.executable, str(HERE / "gen_corpus_varied.py"), str(varied), "--files",
                        str(2 * args.heavy_files)], check=True)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(HERE.parent / "nnsight_lint")], check=True)
        skip = () if args.all_peers_on_transformers else ("fixit", "libcst")
        big = run_corpus("transformers source tree", tree, args.runs, args.slow_runs, skip)
        small = run_corpus("nnsight-heavy generated corpus", heavy, args.runs, args.slow_runs)
        other = run_corpus("second nnsight corpus (gen_corpus_varied.py)", varied, args.runs, args.slow_runs,
                           ("flake8", "fixit"))
        print("\n## nnsight-heavy corpus: where one file's time goes (one process, `benchmarks/phases.py`)\n")
        print(subprocess.run([sys.executable, str(HERE / "phases.py"), str(heavy)], check=True,
                             capture_output=True, text=True).stdout.rstrip())

    print("\n## Goals (each the median of the runs' own ratios)\n")
    nnl, loop = "nnsight-lint (no cache)", "libcst parse loop (1 process)"
    one = "nnsight-lint --jobs 1 (no cache)"
    if "ruff --select B006" in big:
        print(ratio_line("transformers: nnsight-lint / ruff B006, wall", ratio(big, nnl, "ruff --select B006"), 0.5))
    for name, samples in (("heavy corpus", small), ("second corpus", other)):
        print(ratio_line(f"{name}: nnsight-lint / libcst parse loop, wall", ratio(samples, nnl, loop), 0.6))
        print(ratio_line(f"{name}: nnsight-lint --jobs 1 / libcst parse loop, wall", ratio(samples, one, loop), 1.15))
    for name, samples in (("transformers", big), ("heavy corpus", small)):
        print(ratio_line(f"{name}: warm cache / cold cache, wall",
                         ratio(samples, "nnsight-lint (warm cache)", "nnsight-lint (cold cache)"), 0.1))
    print(ratio_line("heavy corpus: nnsight-lint / libcst parse loop, peak memory", ratio(small, nnl, loop, 2), 2.0))
    print(f"- heavy corpus: --jobs 1 / default jobs, wall: {ratio(small, one, nnl):.2f}x")

if __name__ == "__main__":
    main()
