"""One huge file: N traces (default 58,000, about 10 MB) in one module, linted by the CLI in a
subprocess; prints its wall time and peak memory (from wait4's rusage, the child alone).

    .venv/bin/python benchmarks/huge_file.py [--traces N] [--keep FILE]
    .venv/bin/python benchmarks/huge_file.py --between --megabytes 1,2,5   # issue 25's scaling table

`--between`: module-level assignments between the traces (one a trace reads, one it does not),
the shape that made every piece carry every statement; `--megabytes` sizes the file instead of
`--traces` and prints one table row per size.

Results and where the memory goes: benchmarks/RESULTS.md, "One huge file".
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TRACE = '''
with model.trace() as tracer_{i}:
    with tracer_{i}.invoke("prompt {i}"):
        hidden_{i} = model.transformer.h[{layer}].output[0].save()
        model.lm_head.output.sum().backward()
    with tracer_{i}.invoke("other {i}"):
        model.lm_head.output.sum().backward()
'''


BETWEEN = '''
prompt_{i} = "prompt number {i}"
threshold_{i} = {i} * 0.5
'''
TRACE_READING = TRACE.replace('"prompt {i}"', "prompt_{i}")


def generate(path: Path, traces: int, between: bool = False) -> int:
    with path.open("w") as out:
        out.write("import torch\n")
        for i in range(traces):
            if between:
                out.write(BETWEEN.format(i=i))
            out.write((TRACE_READING if between else TRACE).format(i=i, layer=i % 12))
    return path.stat().st_size


def measure(path: Path) -> tuple:
    command = [sys.executable, "-m", "nnsight_lint", "check", "--no-cache", "--quiet", str(path)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        child = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        errors = child.stderr.read().decode()
    wall = time.perf_counter() - start
    peak_mib = usage.ru_maxrss / 1024  # KiB on Linux
    return wall, peak_mib, child.returncode, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=58_000)
    parser.add_argument("--keep", type=Path, help="write the file here and keep it")
    parser.add_argument("--between", action="store_true", help="module-level assignments between the traces")
    parser.add_argument("--megabytes", help="comma-separated file sizes (MB): one table row each")
    args = parser.parse_args()
    if args.megabytes:
        per_trace = len((TRACE_READING if args.between else TRACE).format(i=10_000, layer=1))
        per_trace += len(BETWEEN.format(i=10_000)) if args.between else 0
        print("| size | traces | wall s | peak MiB | exit |")
        print("|---:|---:|---:|---:|---:|")
        for megabytes in (float(m) for m in args.megabytes.split(",")):
            directory = tempfile.mkdtemp(prefix="nnsight-lint-huge-")
            path = Path(directory) / "huge.py"
            traces = int(megabytes * 1e6 / per_trace)
            size = generate(path, traces, args.between)
            wall, peak, code, errors = measure(path)
            print(f"| {size / 1e6:.1f} MB | {traces:,} | {wall:.1f} | {peak:.0f} | {code} |", flush=True)
            path.unlink()
        return
    directory = tempfile.mkdtemp(prefix="nnsight-lint-huge-")
    path = args.keep or Path(directory) / "huge.py"
    size = generate(path, args.traces, args.between)
    wall, peak, code, errors = measure(path)
    print(f"{args.traces} traces, {size / 1e6:.1f} MB: {wall:.1f} s, peak {peak:.0f} MiB, exit {code}")
    if errors.strip():
        print(errors.strip()[:500])


if __name__ == "__main__":
    main()
