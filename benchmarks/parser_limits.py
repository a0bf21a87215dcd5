"""Where libcst's native parser dies: for each deep shape, the smallest size that kills the process
(segfault), found by doubling then bisecting, each try in a subprocess of its own.

    .venv/bin/python benchmarks/parser_limits.py [--stack BYTES] [SHAPE ...]

`--stack 0` (default) parses on the main thread (its stack is `ulimit -s`, 8 MiB here); a size parses
in a thread with that stack, as the linter does (nnsight_lint/engine/depth.py: 512 MiB). Re-run after a
libcst upgrade and compare with the limits in nnsight_lint/engine/depth.py. It is slow (libcst's time
grows steeply with depth: minutes per shape), so it is a script, not a test.

Measured with libcst 1.9.0, CPython 3.11, 8 MiB main-thread stack (the first size that crashed):
attribute chain 5,952; sum 7,040; nested parentheses 1,280; nested calls 1,200; `elif` chain 8,320;
`and` chain 7,168; unary minus 8,192. Adjacent strings never crash: past 3,000 libcst reports a
false syntax error. CPython 3.11 itself refuses all but `and`/`or` chains and adjacent strings at
about 3,000 levels (200 brackets, 100 indents).
"""
from __future__ import annotations

import argparse
import subprocess
import sys

SHAPES = {
    "attribute_chain": lambda n: "x = a" + ".b" * n + "\n",
    "sum": lambda n: "x = " + " + ".join(["a"] * n) + "\n",
    "nested_parentheses": lambda n: "x = " + "(" * n + "a" + ")" * n + "\n",
    "nested_calls": lambda n: "x = " + "f(" * n + "a" + ")" * n + "\n",
    "chained_calls": lambda n: "x = a" + "()" * n + "\n",
    "method_chain": lambda n: "x = a" + ".f()" * n + "\n",
    "joined_strings": lambda n: "x = " + " ".join(['"s"'] * n) + "\n",
    "elif_chain": lambda n: "if a:\n    pass\n" + "elif a:\n    pass\n" * n,
    "and_chain": lambda n: "x = " + " and ".join(["a"] * n) + "\n",
    "unary": lambda n: "x = " + "-" * n + "a\n",
    "ternary": lambda n: "x = " + "a if b else " * n + "a\n",
}

CHILD = r"""
import sys, threading, libcst
source, stack = sys.stdin.read(), int(sys.argv[1])
def parse():
    try:
        libcst.parse_module(source)
        print("ok")
    except Exception as error:
        print("refused", type(error).__name__)
if stack:
    threading.stack_size(stack)
    thread = threading.Thread(target=parse)
    thread.start()
    thread.join()
else:
    parse()
"""


def crashes(shape: str, size: int, stack: int) -> bool:
    child = subprocess.run([sys.executable, "-c", CHILD, str(stack)], input=SHAPES[shape](size),
                           capture_output=True, text=True)
    return child.returncode < 0


def first_crash(shape: str, stack: int, limit: int = 200_000):
    good, size = 1, 64
    while not crashes(shape, size, stack):
        good, size = size, size * 2
        if size > limit:
            return None
    while size - good > max(1, good // 50):  # 2% is close enough
        middle = (good + size) // 2
        good, size = (good, middle) if crashes(shape, middle, stack) else (middle, size)
    return size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stack", type=int, default=0)
    parser.add_argument("shapes", nargs="*", default=list(SHAPES))
    args = parser.parse_args()
    for shape in args.shapes:
        print(f"{shape}: {first_crash(shape, args.stack) or 'no crash up to 200,000'}", flush=True)


if __name__ == "__main__":
    main()
