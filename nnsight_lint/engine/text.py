"""Lines as Python counts them: broken at \\r\\n, \\r or \\n only (not at the form feeds and
Unicode separators `str.splitlines()` also breaks at). Every module that turns offsets into lines
uses these, so the linter, the fixer, the notebook and LSP doors agree on what line N is."""
from __future__ import annotations

import re
import tokenize
from typing import List, Sequence, Tuple

LINE_BREAK = re.compile(r"\r\n|\r|\n")


def line_breaks(text: str) -> int:
    """How many line breaks `text` holds (`LINE_BREAK`'s matches), counted without a regex."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def line_starts(text: str) -> List[int]:
    """Offset of the first character of every line (a text ending in a break has an empty last line)."""
    return [0] + [match.end() for match in LINE_BREAK.finditer(text)]


def split_lines(text: str) -> List[str]:
    """The lines without their breaks; a text ending in a break has an empty last line."""
    return LINE_BREAK.split(text)


def split_lines_keepends(text: str) -> List[str]:
    """The lines with their breaks; no empty last line."""
    lines, start = [], 0
    for match in LINE_BREAK.finditer(text):
        lines.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def decode(source: bytes) -> Tuple[str, str]:
    """The text of a Python source file, and the encoding to write it back with (BOM and
    `# coding:` declarations honoured, as Python reads the file)."""
    # tokenize reads lines at b"\n" only; CPython's own reader also ends them at a lone b"\r", so a
    # CR-only file's `# coding:` line must be offered as a line of its own.
    lines = iter(re.split(rb"(?<=\r)(?!\n)|(?<=\n)", source, maxsplit=2)[:2])
    encoding, _ = tokenize.detect_encoding(lambda: next(lines, b""))
    return source.decode(encoding), encoding


def common_ends(old: Sequence, new: Sequence) -> Tuple[int, int]:
    """How many leading and trailing items `old` and `new` share (never overlapping)."""
    if isinstance(old, str) and isinstance(new, str):  # slices compare at C speed
        head = _common_length(old, new, lambda text, n: text[:n])
        tail = _common_length(old[head:], new[head:], lambda text, n: text[len(text) - n :])
        return head, tail
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def _common_length(old: str, new: str, end) -> int:
    """The longest n for which `end(old, n) == end(new, n)`, by bisection."""
    low, high = 0, min(len(old), len(new))
    while low < high:
        middle = (low + high + 1) // 2
        if end(old, middle) == end(new, middle):
            low = middle
        else:
            high = middle - 1
    return low


def indent_unit(lines: Sequence[str], default: str = "    ") -> str:
    """How the text indents a block: what the first indented line adds to the line opening its
    block (a tab, two spaces, ...); `default` when nothing is indented. Read from the whole text,
    as the parsed part may have lost the file's only indented blocks to slicing."""
    opener = None  # the indentation of the last code line that ends in ":"
    for line in lines:
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        indent = line[: len(line) - len(stripped)]
        if opener is not None and len(indent) > len(opener) and indent.startswith(opener):
            return indent[len(opener):]
        opener = indent if stripped.split("#", 1)[0].rstrip().endswith(":") else None
    return default
