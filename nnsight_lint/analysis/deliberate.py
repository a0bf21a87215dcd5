"""What the text around a finding says: that the code fails on purpose. Docs and notebooks show
nnsight mistakes deliberately and say so, in a comment on the line (`# raises NameError`) or in
the markdown right before the cell ("The next cell fails on purpose:"); such a finding is not
reported by default (`report-deliberate-errors`). The code's own shapes (`pytest.raises`,
`try`/`except`) are read by `analysis.demos`. Imports nothing heavy: notebooks are read before
anything is parsed.

Only a statement about THIS line or the NEXT cell counts: a comment that merely holds a word
("# gradient of the logits; raises their attribution", "# TODO: handle the ValueError case") or
markdown after a cell hides nothing, as a real bug must not pass for a demo.
"""
from __future__ import annotations

import re
from typing import FrozenSet, List, Optional, Sequence, Tuple

_FAILS = r"(?:raises?|throws?|fails?|errors?(?:\s+out)?|breaks?|crash(?:es)?|blows?\s+up)"
_ERROR_NAME = r"[A-Z]\w*(?:Error|Exception)"
# What may follow "raises" in a comment that says the line raises: nothing, punctuation, the error,
# or why / how ("on purpose", "here", "because ...").
_AFTER = (r"(?:$|[!.:;,)(\-]|(?:an?\s+)?(?:" + _ERROR_NAME + r"|error|exception)\b"
          r"|(?:on\s+purpose|deliberately|intentionally|here|as\s+expected|at\s+run\s*time|because|since|now)\b)")
_COMMENT_SAYS_IT_FAILS = re.compile(
    r"^(?:<-+|\^+|-+>|!+)?\s*(?:"
    # "raises NameError", "this will fail", "fails on purpose", "will throw an error"
    r"(?i:(?:(?:this(?:\s+line)?|that|it|here|which)\s*:?\s+)?"
    r"(?:(?:will|would|should|must|is\s+going\s+to|is\s+expected\s+to|is\s+supposed\s+to)\s+)?)"
    r"(?i:" + _FAILS + r")\s*(?i:" + _AFTER + r")"
    # "NameError!", "RuntimeError here", "ValueError: ..."
    r"|" + _ERROR_NAME + r"\s*(?:$|[!:(]|(?i:here|raised|is\s+raised|expected)\b)"
    # "error!", "error: ...", "expected NameError", "doesn't work"
    r"|(?i:error\s*(?:$|[!:]))"
    r"|(?i:expect(?:ed|s|ing)?\s*:?\s+(?:an?\s+)?)(?:" + _ERROR_NAME + r"|(?i:error|exception)\b)"
    r"|(?i:(?:this\s+|it\s+)?(?:doesn't|does\s+not|won't|will\s+not)\s+work\b)"
    r")"
)


def _comment(line: str) -> Optional[str]:
    """The text of the line's comment (after its `#`), None when it has none; `#` inside a string
    starts none."""
    quote = None
    index = 0
    while index < len(line):
        char = line[index]
        if quote is not None:
            if char == "\\":
                index += 1
            elif line.startswith(quote, index):
                index += len(quote) - 1
                quote = None
        elif char in "\"'":
            quote = line[index : index + 3] if line[index : index + 3] in ('"""', "'''") else char
            index += len(quote) - 1
        elif char == "#":
            return line[index:].lstrip("#").strip()
        index += 1
    return None


def comment_says_it_fails(line: str) -> bool:
    """Does the line's comment say that this line fails (`# raises NameError`, `# fails on
    purpose`, `# error!`)? A comment that only holds such a word does not."""
    comment = _comment(line)
    return comment is not None and _COMMENT_SAYS_IT_FAILS.match(comment) is not None


# Markdown right before a code cell that says the cell fails: "The next cell fails on purpose",
# "The code below raises a NameError", "This will fail:", "Running it throws an error:". Read from
# the end of the markdown (the sentences right at the cell), in `.ipynb` notebooks and `# %%`
# scripts alike.
_NEXT = r"(?:next|following|below|this)\s+(?:cell|code|line|example|snippet|call|one|trace)|(?:cell|code)\s+below|below"
_PROSE_SAYS_NEXT_FAILS = re.compile(
    r"(?i:\b(?:" + _NEXT + r")\b[^.!?]{0,80}?\b(?:" + _FAILS + r"|(?:will|would|should)\s+(?:fail|raise|throw|error|break|crash)"
    r"|(?:doesn't|does\s+not|won't|will\s+not)\s+work)\b"
    r"|\b(?:fails?|raises?|throws?|errors?)\s+on\s+purpose\b|\bon\s+purpose\b[^.!?]{0,40}\b(?:" + _FAILS + r"|error)"
    r"|\b(?:" + _FAILS + r"|(?:will|would)\s+(?:fail|raise|throw|error|break|crash))\b[^.!?:]{0,80}:\s*$)"
)
_PROSE_WINDOW = 400  # characters at the end of the markdown that are read: the sentences right at the cell


def says_the_next_cell_fails(markdown: str) -> bool:
    return _PROSE_SAYS_NEXT_FAILS.search(markdown.strip()[-_PROSE_WINDOW:]) is not None


_PERCENT_CELL = re.compile(r"[ \t]*#[ \t]*%%(?P<markdown>[^\r\n]*\[markdown\])?")


def percent_demo_lines(lines: Sequence[str]) -> FrozenSet[int]:
    """1-based lines of the code cells of a `# %%` script that the markdown cell right before says fail."""
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
        if markdown or index == 0 or not cells[index - 1][0]:
            continue
        if says_the_next_cell_fails(prose(cells[index - 1])):
            demo.update(range(first, last + 1))
    return frozenset(demo)
