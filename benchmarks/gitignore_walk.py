"""What `.gitignore` costs a walk: a script, not a test.

    .venv/bin/python benchmarks/gitignore_walk.py [--files 10000] [--patterns 10000] [--scales 1,2,5]

Writes a tree of FILES Python files (20 a directory) and a `.gitignore` of PATTERNS lines (a third
directory names, a third `*.ext` wildcards, a third anchored paths, a few negations; none of them
matches, so every file is checked against all), then, at each scale (files and patterns both
multiplied), walks it in a fresh process with `discovery.iter_files` and with `git ls-files
--others --exclude-standard`, and prints wall time and peak memory (the child's ru_maxrss).
Results: benchmarks/RESULTS.md, ".gitignore".
"""
from __future__ import annotations

import argparse
import os
import threading
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WALK = "import sys; from nnsight_lint.sources.discovery import iter_files; print(sum(1 for _ in iter_files([sys.argv[1]])))"


def build(root: Path, files: int, patterns: int) -> None:
    for n in range(files):
        directory = root / f"pkg{n // 400}" / f"sub{n // 20}"
        directory.mkdir(parents=True, exist_ok=True)
        (directory / f"mod{n}.py").write_text("")
    lines = []
    for n in range(patterns):
        kind = n % 3
        lines.append(f"build_{n}/" if kind == 0 else f"*.ext{n}" if kind == 1 else f"pkg{n}/sub/file_{n}.py")
        if n % 500 == 499:
            lines.append(f"!keep_{n}.py")
    (root / ".gitignore").write_text("\n".join(lines) + "\n")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)


def measure(command, cwd: Path, timeout: float = None):
    """(wall s, the child's peak MiB, stdout), or (None, None, None) past `timeout`."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
        timer = threading.Timer(timeout, child.kill) if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        if timer:
            timer.cancel()
        if child.returncode < 0:
            return None, None, None
        out.seek(0)
        return time.perf_counter() - start, usage.ru_maxrss / 1024, out.read().decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--patterns", type=int, default=10_000)
    parser.add_argument("--scales", default="1,2,5")
    parser.add_argument("--git-timeout", type=float, default=60.0, help="stop timing git after this many seconds")
    args = parser.parse_args()
    print("| scale | files | patterns | nnsight-lint walk s | peak MiB | git ls-files s | files found |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for scale in (int(s) for s in args.scales.split(",")):
        with tempfile.TemporaryDirectory(prefix="nnsight-lint-gitignore-") as directory:
            root = Path(directory)
            build(root, args.files * scale, args.patterns * scale)
            ours, peak, found = measure([sys.executable, "-c", WALK, "."], root)
            git, _, listed = measure(["git", "ls-files", "--others", "--exclude-standard"], root, args.git_timeout)
            if listed is not None:
                assert int(found) == sum(1 for line in listed.splitlines() if line.endswith(".py")), found
            shown = f"{git:.2f}" if git is not None else f"> {args.git_timeout:.0f}"
            print(f"| {scale}x | {args.files * scale:,} | {args.patterns * scale:,} | {ours:.2f} | {peak:.0f} | {shown} | {int(found):,} |",
                  flush=True)


if __name__ == "__main__":
    main()
