"""Deep code: refuse what would crash or stall libcst's parser, and analyse the rest on a stack deep
enough that Python's recursion limit does not bite.

libcst's native parser recurses on the C stack, once per level of a chain (`a.b.b...`, `a + a + ...`,
`f()()...`, `not not ...`, an `elif` chain, adjacent strings); past the stack it kills the process,
which no `except` can catch. Measured with libcst 1.9 (benchmarks/parser_limits.py) on an 8 MiB
stack it dies at about 6,000 chained attributes, 7,000 summed terms, 7,000 `and`s, 8,000 `elif`s,
1,200 nested calls; it reports a false syntax error past 3,000 adjacent strings; and it slows down
steeply with depth (a 2,000-term sum takes seconds). CPython refuses all but two of these shapes
at about 3,000 levels (200 brackets, 100 indents) and its parser is fast and safe, so it is the
judge; the two it flattens (`and`/`or` chains, adjacent strings) are counted here.

Cheap tests first: only text whose bracket depth, `elif` count, indentation or one statement's
operator count looks suspicious is given to CPython's parser. The parse and the rules then run in
a thread with a large stack (64x the default 8 MiB, so libcst's crash points lie far beyond what
CPython accepts) and a raised recursion limit.
"""
from __future__ import annotations

import os
import queue
import re
import sys
import threading
from typing import Callable, Optional, Tuple, TypeVar, Union

# Past any of these, CPython's parser decides (cheap tests; a normal file stays below all of them).
SUSPICIOUS = 1000  # operators in one statement, or `elif`s in the file
_SUSPICIOUS_BRACKETS = 100  # CPython refuses 200 nested brackets
_DEEP_INDENT = re.compile(rb"^[ \t]{100,}\S", re.MULTILINE)  # CPython refuses 100 indentation levels
# What CPython flattens but libcst nests: refused here.
MAX_JOINED_STRINGS = 3000  # libcst reports a false syntax error past 3,000 adjacent strings
MAX_BOOLEAN_OPERATORS = 50_000  # libcst dies near 7,000 on 8 MiB; the deep stack is 64x that

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 200_000

# Tokens that can add a level to libcst's tree (an over-count: a `.` in a float, a `-` in a list).
_NESTING = (b".", b"+", b"-", b"*", b"/", b"%", b"@", b"&", b"|", b"^", b"~", b"<", b">", b"(", b"[",
            b"'", b'"', b" and ", b" or ", b"not ", b"if ", b"lambda", b"await ")
# A string's prefix letters do not change where it ends, so a token starts at a quote: the scan
# skips everything else at C speed.
_TOKENS = re.compile(
    rb"(?P<string>'''[\s\S]*?(?<!\\)'''|\"\"\"[\s\S]*?(?<!\\)\"\"\"|'(?:\\.|[^'\\\r\n])*'"
    rb"|\"(?:\\.|[^\"\\\r\n])*\")|(?P<comment>#[^\r\n]*)|(?P<open>[(\[{])|(?P<close>[)\]}])"
    rb"|(?P<continuation>\\\r?\n)|(?P<newline>\r\n?|\n)"
)
_BOOLEAN = re.compile(rb"\b(?:and|or)\b")
_BETWEEN_STRINGS = re.compile(rb"(?:\s|\\\r?\n)*")

Refusal = Tuple[int, int, str]  # line, column, why


def refusal(source: Union[str, bytes]) -> Optional[Refusal]:
    """Why the text must not be given to libcst (line, column, reason), or None.

    Run it on the caller's stack with the process's own recursion limit: that limit is what makes
    CPython refuse nesting it cannot compile."""
    return assess(source)[0]


def assess(source: Union[str, bytes]) -> Tuple[Optional[Refusal], bool]:
    """`refusal(source)`, and whether the text is suspicious (deep enough that libcst must parse it
    on the deep thread's stack); a text that is not can be parsed on the main thread's."""
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    statements, deepest = _scan(data) if _count(data) > SUSPICIOUS else ([], 0)
    suspicious = (
        statements
        or deepest >= _SUSPICIOUS_BRACKETS
        or data.count(b"elif") > SUSPICIOUS
        or _DEEP_INDENT.search(data) is not None
    )
    if not suspicious:
        return None, False
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the file's own SyntaxWarnings are not ours to print
            ast.parse(source)
    except SyntaxError as error:
        detail = error.msg or "invalid syntax"
        if statements or "too many" in detail:  # never given to libcst: it may be too deep to parse
            return (max(error.lineno or 1, 1), max(error.offset or 1, 1), detail), True
        return None, True  # an ordinary syntax error: libcst reports it
    except (RecursionError, MemoryError):
        return (_line_of(data, statements), 1, "too deeply nested for Python's parser"), True
    except Exception:  # NUL bytes, bad encodings: libcst reports those itself
        return None, True
    for start, end in statements:
        joined = _longest_string_run(data, start, end)
        if joined > MAX_JOINED_STRINGS:
            return (_line_of(data, [(start, end)]), 1, f"{joined} adjacent strings (more than the parser takes)"), True
        booleans = len(_BOOLEAN.findall(data, start, end))
        if booleans > MAX_BOOLEAN_OPERATORS:
            return (_line_of(data, [(start, end)]), 1, f"{booleans} `and`/`or` in one expression (too deep to parse)"), True
    return None, True


def _count(data: bytes) -> int:
    return sum(data.count(token) for token in _NESTING)


def _scan(data: bytes):
    """The logical lines with more than SUSPICIOUS nesting tokens ((start, end) byte offsets), and
    the deepest bracket nesting."""
    found, depth, deepest, start = [], 0, 0, 0
    for match in _TOKENS.finditer(data):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
            deepest = max(deepest, depth)
        elif kind == "close":
            depth = max(depth - 1, 0)
        elif kind == "newline" and depth == 0:
            end = match.start()
            if end - start > SUSPICIOUS and _count(data[start:end]) > SUSPICIOUS:
                found.append((start, end))
            start = match.end()
    if len(data) - start > SUSPICIOUS and _count(data[start:]) > SUSPICIOUS:
        found.append((start, len(data)))
    return found, deepest


def _longest_string_run(data: bytes, start: int, end: int) -> int:
    longest = run = 0
    previous_end = None
    for match in _TOKENS.finditer(data, start, end):
        if match.lastgroup in ("comment", "newline", "continuation"):
            continue
        adjacent = previous_end is not None and _BETWEEN_STRINGS.fullmatch(data, previous_end, match.start())
        if match.lastgroup == "string":
            run = run + 1 if adjacent else 1
            longest = max(longest, run)
            previous_end = match.end()
        else:
            previous_end = None
    return longest


def _line_of(data: bytes, statements) -> int:
    return data.count(b"\n", 0, statements[0][0]) + 1 if statements else 1


# --- running deep ----------------------------------------------------------------------------

T = TypeVar("T")
_inside = threading.local()
_lock = threading.Lock()
_raised = 0  # calls running with the raised limit
_saved_limit = 0
_worker: Optional["_DeepThread"] = None


class _DeepThread:
    """One long-lived thread with a large stack that runs the calls it is given, one at a time.
    Long-lived because libcst's native parser sets up per-thread state: a fresh thread per file
    costs more than the parse of a small one."""

    def __init__(self) -> None:
        self.jobs: "queue.SimpleQueue" = queue.SimpleQueue()
        previous = threading.stack_size()
        try:
            threading.stack_size(STACK_BYTES)  # applies to threads started while it is set
            thread = threading.Thread(target=self._serve, name="nnsight-lint-deep", daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)

    def _serve(self) -> None:
        _inside.deep = True
        while True:
            function, args, outcome, done = self.jobs.get()
            try:
                outcome["value"] = function(*args)
            except BaseException as error:  # re-raised in the caller
                outcome["error"] = error
            done.release()

    def run(self, function, args):
        outcome: dict = {}
        done = threading.Lock()
        done.acquire()
        self.jobs.put((function, args, outcome, done))
        done.acquire()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]


def run_deep(function: Callable[..., T], *args) -> T:
    """`function(*args)` on a large stack with a raised recursion limit (restored after), so that
    code CPython compiles is walked however deep it nests. Inline when already there, or when no
    such thread can be started (the recursion limit then stays as it was)."""
    global _worker
    if getattr(_inside, "deep", False):
        return function(*args)
    with _lock:
        if _worker is None:
            try:
                _worker = _DeepThread()
            except (ValueError, RuntimeError, MemoryError):  # no such stack here
                return function(*args)  # as before: RecursionError and all
        worker = _worker
        _raise_limit()
    try:
        return worker.run(function, args)
    finally:
        _restore_limit()


def run_main_first(function: Callable[..., T], *args) -> T:
    """`function(*args)` right here when this is the main thread (8 MiB of stack, no hand-over to
    another thread), again on the deep thread if Python's recursion limit stops it. Only for work
    whose native recursion is bounded: a text `assess` found not suspicious, or pure Python."""
    if getattr(_inside, "deep", False) or threading.current_thread() is not threading.main_thread():
        return run_deep(function, *args)
    try:
        return function(*args)
    except RecursionError:
        return run_deep(function, *args)


def _forget_worker() -> None:
    global _worker, _lock, _raised
    _worker, _lock, _raised = None, threading.Lock(), 0  # a forked child has no such thread


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_worker)


def _raise_limit() -> None:  # under _lock
    global _raised, _saved_limit
    if _raised == 0:
        _saved_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
    _raised += 1


def _restore_limit() -> None:
    global _raised
    with _lock:
        _raised -= 1
        if _raised == 0:
            sys.setrecursionlimit(_saved_limit)
