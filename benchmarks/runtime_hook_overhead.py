"""What the runtime hook costs on a passing trace: a script, not a test.

    .venv/bin/python benchmarks/runtime_hook_overhead.py [--reps 300]

Times a two-invoke trace whose first backward retains the graph (so it passes), alternating runs
without and with the hook so drift hits both alike, and prints the medians and their ratio.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=300, help="runs of each kind (default 300)")
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()

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
