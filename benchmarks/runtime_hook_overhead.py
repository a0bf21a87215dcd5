"""What the runtime hook costs on a passing run: a script, not a test.

    .venv/bin/python benchmarks/runtime_hook_overhead.py [--reps 300]
    .venv/bin/python benchmarks/runtime_hook_overhead.py --pytest [--runs 7] [--warnings 200]

Times a two-invoke trace whose first backward retains the graph (so it passes), alternating runs
without and with the hook so drift hits both alike, and prints the medians and their ratio.

`--pytest`: a passing pytest run of a small suite of an nnsight project (its test module imports
torch and nnsight, runs a trace, and its tests emit WARNINGS warnings, a few of them torch's
non-leaf `.grad` warning, which a rule re-tells), in a fresh process each time, with and without
`-p nnsight_lint.pytest_plugin`, alternating; prints the medians and their ratio (goal <= 1.1x).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def passing_trace(model) -> None:
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            model.lm_head.output.sum().backward(retain_graph=True)
        with tracer.invoke("the cat sat"):
            model.lm_head.output.sum().backward()


def timed(model, hooked: bool) -> float:
    from nnsight_lint.doors import runtime

    if hooked:
        runtime.install()
    try:
        start = time.perf_counter()
        passing_trace(model)
        return time.perf_counter() - start
    finally:
        runtime.uninstall()


SUITE = '''
import sys, warnings
sys.path.insert(0, {root!r})
import torch
import nnsight
from tests.tiny_model import tiny_model

model = tiny_model()


def test_a_trace():
    with model.trace("hello world"):
        hidden = model.transformer.h[0].output.save()
    assert hidden.shape[0] == 1

{tests}
'''
WARNING_TEST = '''
def test_warns_{n}():
    for i in range({per_test}):
        warnings.warn(f"deprecated option {n}.{{i}}", DeprecationWarning)
'''
NON_LEAF_TEST = '''
def test_torch_non_leaf_grad_{n}():
    x = torch.ones(2, requires_grad=True) * 2
    assert x.grad is None  # torch warns: "... is not a leaf Tensor is being accessed"
'''


def pytest_runs(runs: int, count: int, non_leaf: int = 3) -> None:
    import os
    import subprocess
    import tempfile

    directory = tempfile.mkdtemp(prefix="nnsight-lint-hook-")
    per_test = 10
    tests = [WARNING_TEST.format(n=n, per_test=per_test) for n in range(count // per_test)]
    tests += [NON_LEAF_TEST.format(n=n) for n in range(non_leaf)]
    Path(directory, "test_suite.py").write_text(SUITE.format(root=str(ROOT), tests="".join(tests)))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}

    def run(plugin: bool) -> float:
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_suite.py"]
        if plugin:
            command[3:3] = ["-p", "nnsight_lint.pytest_plugin"]
        start = time.perf_counter()
        done = subprocess.run(command, cwd=directory, capture_output=True, text=True, env=env)
        elapsed = time.perf_counter() - start
        assert done.returncode == 0 and " passed" in done.stdout, done.stdout + done.stderr
        return elapsed

    run(False), run(True)  # warm the file system cache
    times: dict[bool, list[float]] = {False: [], True: []}
    for i in range(runs):
        for plugin in ((False, True) if i % 2 else (True, False)):
            times[plugin].append(run(plugin))
    without, with_plugin = (statistics.median(times[k]) for k in (False, True))
    print(f"passing pytest run, {len(tests) + 1} tests, {count} warnings + {non_leaf} of torch's non-leaf .grad, "
          f"{runs} runs each (median)")
    print(f"  without plugin: {without:8.3f} s")
    print(f"  with plugin:    {with_plugin:8.3f} s")
    print(f"  ratio:          {with_plugin / without:8.3f}  (goal <= 1.1)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=300, help="runs of each kind (default 300)")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--pytest", action="store_true", help="time a passing pytest run with and without the plugin")
    parser.add_argument("--runs", type=int, default=7, help="with --pytest: runs of each kind (default 7)")
    parser.add_argument("--warnings", type=int, default=200, help="with --pytest: warnings the suite emits")
    parser.add_argument("--non-leaf", type=int, default=3, help="with --pytest: tests that get torch's non-leaf warning")
    args = parser.parse_args()
    if args.pytest:
        pytest_runs(args.runs, args.warnings, args.non_leaf)
        return

    warnings.simplefilter("ignore")
    sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the repo's own modules
    from tests.tiny_model import tiny_model

    model = tiny_model()
    for i in range(args.warmup):
        timed(model, hooked=bool(i % 2))
    times: dict[bool, list[float]] = {False: [], True: []}
    for i in range(args.reps):
        order = (False, True) if i % 2 else (True, False)  # neither kind always goes first
        for hooked in order:
            times[hooked].append(timed(model, hooked))

    without, with_hook = (statistics.median(times[k]) * 1e3 for k in (False, True))
    paired = statistics.median(on / off for off, on in zip(times[False], times[True]))
    print(f"two-invoke trace, {args.reps} runs each (median)")
    print(f"  without hook: {without:8.3f} ms")
    print(f"  with hook:    {with_hook:8.3f} ms")
    print(f"  ratio:        {with_hook / without:8.3f}  (median of paired ratios {paired:.3f})")


if __name__ == "__main__":
    main()
