"""One huge file: N traces (default 58,000, about 10 MB) in one module, linted by the CLI in a
subprocess; prints its wall time and peak memory (from wait4's rusage, the child alone).

    .venv/bin/python benchmarks/huge_file.py [--traces N] [--keep FILE]

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


def generate(path: Path, traces: int) -> int:
    with path.open("w") as out:
        out.write("import torch\n")
        for i in range(traces):
            out.write(TRACE.format(i=i, layer=i % 12))
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
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="nnsight-lint-huge-")
    path = args.keep or Path(directory) / "huge.py"
    size = generate(path, args.traces)
    wall, peak, code, errors = measure(path)
    print(f"{args.traces} traces, {size / 1e6:.1f} MB: {wall:.1f} s, peak {peak:.0f} MiB, exit {code}")
    if errors.strip():
        print(errors.strip()[:500])


if __name__ == "__main__":
    main()
