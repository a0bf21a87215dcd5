"""What the text around a finding says: that the code fails on purpose. Docs and notebooks show
nnsight mistakes deliberately and say so, in a comment on the line (`# will throw an error`) or in
the markdown next to the cell ("Oh no, an error!"); such a finding is not reported by default
(`report-deliberate-errors`). The code's own shapes (`pytest.raises`, `try`/`except`) are read by
`analysis.demos`. Imports nothing heavy: notebooks are read before anything is parsed.
"""
from __future__ import annotations

import re
from typing import FrozenSet, List, Sequence, Tuple

# A comment on the reported line that says the line fails: "# will throw an error", "# raises
# NameError", "# error!", "# fails".
_COMMENT_SAYS_IT_FAILS = re.compile(
    r"#.*(?i:\b(?:will|would|should|must)\s+(?:throw|raise|fail|error|break)\b|\b(?:throws|raises|fails)\b)"
    r"|#.*\b[A-Z]\w*Error\b|#\s*(?i:error)\b"
)


def comment_says_it_fails(line: str) -> bool:
    return _COMMENT_SAYS_IT_FAILS.search(line) is not None


# Notebook prose around a cell that shows an error on purpose: "Oh no, an error!", "This fails
# because ...", "... will raise a NameError". Read from the markdown cell right after a code cell
# (or right before it), in `.ipynb` notebooks and `# %%` scripts alike.
_PROSE_SAYS_IT_FAILS = re.compile(
    r"(?i:\ban?\s+(?:error|exception)\b|\b(?:fails|failed|raises|throws|errors out)\b"
    r"|\b(?:will|would)\s+(?:fail|error|raise|throw|break)\b|\b(?:doesn't|does not|won't|will not) work\b)"
    r"|\b[A-Z]\w*Error\b"
)
_PROSE_WINDOW = 400  # characters of the markdown that are read: the sentence right at the cell


def says_it_fails(markdown: str) -> bool:
    return _PROSE_SAYS_IT_FAILS.search(markdown[:_PROSE_WINDOW]) is not None


_PERCENT_CELL = re.compile(r"[ \t]*#[ \t]*%%(?P<markdown>[^\r\n]*\[markdown\])?")


def percent_demo_lines(lines: Sequence[str]) -> FrozenSet[int]:
    """1-based lines of the code cells of a `# %%` script that a neighbouring markdown cell says fail."""
    cells: List[Tuple[bool, int, int]] = []  # (markdown?, first line, last line)
    for number, line in enumerate(lines, start=1):
        marker = _PERCENT_CELL.match(line)
        if marker is not None:
            if cells:
                cells[-1] = (cells[-1][0], cells[-1][1], number - 1)
            cells.append((marker.group("markdown") is not None, number + 1, len(lines)))
    if not any(markdown for markdown, _, _ in cells):
        return frozenset()

    def prose(cell) -> str:
        return " ".join(lines[i - 1].lstrip("# \t") for i in range(cell[1], cell[2] + 1))

    demo = set()
    for index, (markdown, first, last) in enumerate(cells):
        if markdown:
            continue
        around = [cells[j] for j in (index + 1, index - 1) if 0 <= j < len(cells) and cells[j][0]]
        if around and says_it_fails(prose(around[0])):
            demo.update(range(first, last + 1))
    return frozenset(demo)
