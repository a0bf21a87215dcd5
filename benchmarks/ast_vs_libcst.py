"""What an analysis on CPython's `ast` would start from, next to libcst's tree, on the same files.

    .venv/bin/python benchmarks/ast_vs_libcst.py DIR

Each `.py` file under DIR is sliced as the linter slices it (`lint.sliced_text`), then, in one
process with the garbage collector off, best of three: the parse the linter runs
(`engine.parser.parse_module`) against `ast.parse`, and a visit of every node of each tree (the
analysis's own walk of libcst's fields, `analysis.tree.every_child`, which skips the node
rebuilding of libcst's `.children`; `ast.walk`). Issue 24's second corpus spends 0.77x a parse after the parse
looking at libcst's tree; this says what the same looking could start from instead
(benchmarks/RESULTS.md, eighth session).
"""
from __future__ import annotations

import argparse
import ast
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nnsight_lint.analysis.tree import every_child  # noqa: E402
from nnsight_lint.engine.lint import sliced_text  # noqa: E402
from nnsight_lint.engine.parser import parse_module  # noqa: E402


def _best(run, times: int = 3) -> float:
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def _libcst_nodes(module) -> int:
    count, stack = 0, [module]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(every_child(node))
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory", type=Path)
    args = parser.parse_args()
    texts = []
    for path in sorted(args.directory.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        parts = sliced_text(text)
        texts.append(text if parts is None else parts.text)
    gc.disable()
    for text in texts[:10]:
        parse_module(text)  # past a process's first parse (`engine.parser`)
    modules, trees = [parse_module(t) for t in texts], [ast.parse(t) for t in texts]
    rows = [
        ("parse", _best(lambda: [parse_module(t) for t in texts]), _best(lambda: [ast.parse(t) for t in texts])),
        ("visit every node", _best(lambda: [_libcst_nodes(m) for m in modules]),
         _best(lambda: [sum(1 for _ in ast.walk(t)) for t in trees])),
    ]
    nodes = (sum(map(_libcst_nodes, modules)), sum(sum(1 for _ in ast.walk(t)) for t in trees))
    print(f"{len(texts)} files; nodes: libcst {nodes[0]:,}, ast {nodes[1]:,}\n")
    print("| step | libcst s | ast s | ast / libcst |\n|---|---:|---:|---:|")
    for step, libcst_seconds, ast_seconds in rows:
        print(f"| {step} | {libcst_seconds:.3f} | {ast_seconds:.3f} | {ast_seconds / libcst_seconds:.2f}x |")


if __name__ == "__main__":
    main()
