"""Parse only what can matter: the top-level definitions a finding cannot depend on are blanked
before libcst sees the text, keeping every line break, so every position stays exact.

A top-level `def` or `class` is kept when it holds a trace opener, when its name is used inside
a kept trace body or a kept helper (helpers called from traces are walked as if inlined), or when
it reads a name a top-level statement binds to an nnsight model, or a top-level statement that
reads such a name uses it (`weights(model)`): its API uses are findings of their own
(`model._model`, `m.x.output.stop()`). Every
other top-level statement (imports, assignments, `if`/`for`/`with`/`try` blocks) is always kept:
it may bind a name a trace reads. The statement scanner follows strings, comments, brackets and
backslash continuations; when it meets something it does not understand, nothing is blanked.
"""
from __future__ import annotations

import bisect
import itertools
import re
from typing import Callable, List, NamedTuple, Optional, Pattern, Set, Tuple, Union

from nnsight_lint.engine.text import LINE_BREAK, common_ends, line_breaks

_STRING = (
    r"[rRbBuUfF]{0,2}(?:'''(?:\\[\s\S]|[^\\])*?'''|\"\"\"(?:\\[\s\S]|[^\\])*?\"\"\""
    r"|'(?:\\.|[^'\\\r\n])*'|\"(?:\\.|[^\"\\\r\n])*\")"
)
# `code`: a run of plain code, its brackets listed at once (a match per bracket cost a loop step of
# the scan each: most of a file's tokens).
_TOKENS = re.compile(
    rf"(?P<string>{_STRING})|(?P<comment>#[^\r\n]*)|(?P<code>[^'\"#\\\r\n]+)"
    r"|(?P<continuation>\\(?:\r\n|\r|\n))|(?P<newline>\r\n|\r|\n)|(?P<quote>['\"])"
)
_BRACKETS = re.compile(r"[()\[\]{}]")
_CONTINUES = re.compile(r"(?:else|elif|except|finally)\b")
_DEFINITION = re.compile(r"(?:@|def\b|class\b|async\s+def\b)")
_DEFINED_NAME = re.compile(r"^(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)", re.MULTILINE)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_STRINGS_AND_COMMENTS = re.compile(rf"{_STRING}|#[^\r\n]*")


class GatedPattern:
    """A regex searched only in a text that holds one of `needles`, each of its matches holding
    one: a regex of many alternatives (`\\b`- or `^`-led ones above all) tries each at every
    character, a few `in` tests cost a tenth of that."""

    def __init__(self, pattern: Pattern[str], needles: Tuple[str, ...]) -> None:
        self.pattern, self.needles = pattern, needles

    def search(self, text: str):
        return self.pattern.search(text) if any(needle in text for needle in self.needles) else None


def relevant_text(text: str, trace_opener: Pattern[str], keep: Optional[Union[Pattern[str], GatedPattern]] = None,
                  roots: Optional[Pattern[str]] = None) -> Optional[str]:
    """`text` with the irrelevant top-level definitions blanked, or None when nothing can go.
    A definition whose text matches `keep` is kept too (a rule reads it, e.g. a module's `forward`);
    `roots` as for `sliced`."""
    parts = sliced(text, trace_opener, keep, roots=roots)
    return None if parts is None or not parts.blanked else parts.text


def sliced(
    text: str,
    trace_opener: Pattern[str],
    keep: Optional[Union[Pattern[str], GatedPattern]] = None,
    statement_starts: Callable[[str, List[str]], Optional[List[int]]] = None,
    roots: Optional[Pattern[str]] = None,
    searched: Optional[dict] = None,
) -> Optional["Sliced"]:
    """(`relevant_text`, what it blanked, the kept statements' lines): the blanked definitions alone
    at their own lines and columns (other lines empty), for CPython to check their syntax; when
    nothing can go, the text itself and "" (`Sliced`). None when the text confuses the scanner.
    `statement_starts`: what finds the lines where top-level statements start (an editor's
    document rescans only around an edit). `roots`: a top-level statement it matches names, as its
    first group that matched, a name whose use keeps a definition (`model = LanguageModel(...)`: a helper that
    reads `model._model` holds a finding, called from a trace or not). `searched`: an editor's
    document's, what the last version's statements were found to hold (a statement's text that
    did not change opens a trace and matches `keep` as it did), replaced by this version's."""
    lines = LINE_BREAK.split(text)
    starts = (statement_starts or _statement_starts)(text, lines)
    if starts is None:
        return None
    statements = _group(lines, starts)
    names = [_defined_name(lines, first, end) for first, end in statements]
    # Per statement, what its text holds (by the text: an unchanged statement's is `searched`'s):
    # [opens a trace, matches `keep`, its trace bodies' names, its identifiers, those of its code].
    held: List[list] = []
    found = {}
    for name, (first, end) in zip(names, statements):
        source = _joined(lines, first, end)
        key = (trace_opener, keep, source)
        known = searched.get(key) if searched is not None else None
        if known is None:
            traces = trace_opener.search(source) is not None
            # The keep pattern is the slow search (about 70 us a helper): asked only of definitions.
            known = [traces, name is not None and not traces and keep is not None and keep.search(source) is not None,
                     None, None, None]
        found[key] = known
        held.append(known)
    if searched is not None:
        searched.clear()
        searched.update(found)
    tracing = [known[0] for known in held]
    kept = [name is None or known[0] or known[1] for name, known in zip(names, held)]
    if all(kept):
        return Sliced(text, "", statements)
    used: Set[str] = set()
    rooted = _root_names(lines, statements, names, roots)
    for i, traces in enumerate(tracing):  # names used in trace bodies (and traced definitions' headers)
        if traces:
            if held[i][2] is None:
                held[i][2] = _trace_body_names(lines, *statements[i], trace_opener)
            used |= held[i][2]

    def identifiers(i: int) -> Set[str]:
        if held[i][3] is None:
            held[i][3] = set(_IDENTIFIER.findall(_joined(lines, *statements[i])))
        return held[i][3]

    def rooted_in(i: int) -> bool:
        """Does its code (not its strings or comments) read a root name?"""
        if rooted.isdisjoint(identifiers(i)):
            return False
        if held[i][4] is None:
            held[i][4] = set(_IDENTIFIER.findall(_STRINGS_AND_COMMENTS.sub(" ", _joined(lines, *statements[i]))))
        return not rooted.isdisjoint(held[i][4])

    if rooted:  # a top-level statement handing the model to a helper (`weights(model)`): the helper counts
        for i, name in enumerate(names):
            if name is None and not tracing[i] and rooted_in(i):
                used |= identifiers(i)

    changed = True
    while changed:  # helpers used there (or reading an nnsight model), and what those use in turn
        changed = False
        for i, name in enumerate(names):
            if not kept[i] and (name in used or (rooted and rooted_in(i))):
                kept[i] = changed = True
                used |= identifiers(i)
    breaks = [m.group() for m in LINE_BREAK.finditer(text)] + [""]
    blanked, done = [], 0
    for (first, end), keep in zip(statements, kept):
        if not keep:
            blanked.append("\n" * (first - done))  # CPython counts lines, whatever their breaks
            for index in range(first, end):
                blanked.append(lines[index] + breaks[index])
                lines[index] = ""
            done = end
    kept_statements = [lines_of for lines_of, keep in zip(statements, kept) if keep]
    return Sliced("".join(line + brk for line, brk in zip(lines, breaks)), "".join(blanked), kept_statements)


class Sliced(NamedTuple):
    """What `sliced` makes of a text."""

    text: str  # what libcst is given: the text, the lines of the definitions that can go emptied
    blanked: str  # those definitions alone at their own lines ("": nothing can go)
    # Each top-level statement's lines in `text`: (first, end), 0-based, end excluded. A statement's
    # trailing blank and comment lines are its own (`positions.Positions` brackets it by them).
    statements: List[Tuple[int, int]]


def _root_names(lines: List[str], statements, names, roots: Optional[Pattern[str]]) -> Set[str]:
    """The names the top-level statements (not definitions) matching `roots` bind."""
    if roots is None:
        return set()
    found = set()
    for (first, end), name in zip(statements, names):
        if name is None:
            match = roots.match(lines[first])
            if match is not None:
                found.add(next(group for group in match.groups() if group))
    return found


def _statement_starts(text: str, lines: List[str]) -> Optional[List[int]]:
    """Indexes of the lines where a top-level statement starts; None if the text confuses us."""
    found = scan_statement_starts(text, lines)
    return None if found is None else found[0]


def scan_statement_starts(
    text: str, lines: List[str], line: int = 0, at: int = 0, stop: Optional[Callable[[int, int], bool]] = None
) -> Optional[Tuple[List[int], Optional[int]]]:
    """(the lines where a top-level statement starts, the line the scan stopped at or None),
    scanning from line `line` (starting at offset `at`, outside every bracket and string);
    None if the text confuses us. `stop(line, offset)` is asked at each line that starts outside
    every bracket: True ends the scan there (the caller knows the rest)."""
    depth, at_line_start = 0, True
    starts = []
    for match in _TOKENS.finditer(text, at):
        kind = match.lastgroup
        if at_line_start:  # the first token of a physical line: a statement starts if it sits
            at_line_start = False  # at column 0 outside every bracket
            if depth == 0 and _at_column_0(lines[line]):
                starts.append(line)
        if kind == "code":
            for bracket in _BRACKETS.findall(match.group()):
                if bracket in "([{":
                    depth += 1
                elif depth:  # a close past the last open (broken code) stays at depth 0
                    depth -= 1
        elif kind == "string":
            line += line_breaks(match.group())
        elif kind == "continuation":
            line += 1
        elif kind == "newline":
            line += 1
            at_line_start = True
            if stop is not None and depth == 0 and stop(line, match.end()):
                return starts, line
        elif kind == "quote":  # an unterminated string: let the parser say what is wrong
            return None
    if at_line_start and depth == 0 and line < len(lines) and _at_column_0(lines[line]):
        starts.append(line)
    return (starts, None) if depth == 0 else None


def _at_column_0(line: str) -> bool:
    """Does code start this line at column 0? Form feeds before it count for nothing (Python resets
    the indentation at one), so `\fwith m.trace():` is a top-level statement."""
    return line.lstrip("\f")[:1] not in ("", " ", "\t", "#")


def rescan_statement_starts(
    last: Tuple[str, List[int], List[int]], text: str, lines: List[str], offsets: List[int]
) -> Optional[List[int]]:
    """The statement starts of `text` (its `lines`, starting at `offsets`), given `last`: an earlier
    version's text, line offsets and statement starts. Scans from the last statement that starts
    before the edited line to the first line, past the edit, where the earlier version started a
    statement at the same place: the rest is the same text in the same state. None: scan it all."""
    old, old_offsets, old_starts = last
    if text == old:
        return list(old_starts)
    head, tail = common_ends(old, text)
    # The text up to that statement's first line is the same: it starts a statement now too,
    # outside every bracket and string.
    edited_line = bisect.bisect_right(old_offsets, head) - 1
    index = bisect.bisect_left(old_starts, edited_line) - 1
    if index < 0:
        return None
    restart = old_starts[index]
    line_shift, char_shift = len(offsets) - len(old_offsets), len(text) - len(old)
    known = set(old_starts)
    unchanged_from = len(text) - tail + 1  # past the edit, and past a line break it may split

    def stop(line: int, at: int) -> bool:
        before = line - line_shift
        return at >= unchanged_from and before in known and old_offsets[before] == at - char_shift

    scanned = scan_statement_starts(text, lines, restart, offsets[restart], stop)
    if scanned is None:
        return None
    starts, stopped = scanned
    if stopped is None:
        return [*old_starts[:index], *starts]
    return [*old_starts[:index], *starts, *(s + line_shift for s in old_starts if s >= stopped - line_shift)]


def _group(lines: List[str], starts: List[int]) -> List[Tuple[int, int]]:
    """(first line, end line) of each top-level statement: `else:`/`except:` join their `if`/`try`,
    a `def`/`class` joins its decorators."""
    merged: List[int] = []
    decorated = False  # the statement so far is decorators still waiting for their def/class
    for start in starts:
        text = lines[start]
        if merged and (_CONTINUES.match(text) or (decorated and _DEFINITION.match(text))):
            decorated = decorated and text.startswith("@")
            continue
        merged.append(start)
        decorated = text.startswith("@")
    ends = merged[1:] + [len(lines)]
    return list(zip([0] + merged[1:], ends)) if merged else []


def _defined_name(lines: List[str], first: int, end: int) -> Optional[str]:
    if not _DEFINITION.match(lines[first]):
        return None
    match = _DEFINED_NAME.search(_joined(lines, first, end))
    return match.group(1) if match else None


def _joined(lines: List[str], first: int, end: int) -> str:
    return "\n".join(lines[first:end])


def _trace_body_names(lines: List[str], first: int, end: int, trace_opener: Pattern[str]) -> Set[str]:
    """Identifiers on a definition's header lines and inside each of its trace blocks. A block ends
    at the first line that starts a statement at its opener's indentation or less: not at a
    comment, nor at a line inside a bracket or a string (a multi-line opener's closing `) as
    tracer:`, a string's text at column 0)."""
    names: Set[str] = set()
    header = first
    while header < end and not _DEFINED_NAME.match(lines[header]):
        header += 1
    names |= set(_IDENTIFIER.findall(lines[header] if header < end else ""))
    starts: Optional[Set[int]] = None
    index = first
    while index < end:
        if trace_opener.search(lines[index]):
            indent = _indent(lines[index])
            names |= set(_IDENTIFIER.findall(lines[index]))
            index += 1
            while index < end:
                if lines[index].strip() and _indent(lines[index]) <= indent:
                    if starts is None:
                        starts = _code_starts(lines, first, end)
                    if index in starts:
                        break
                names |= set(_IDENTIFIER.findall(lines[index]))
                index += 1
        else:
            index += 1
    return names


def _code_starts(lines: List[str], first: int, end: int) -> Set[int]:
    """The lines of `lines[first:end]` that start a statement, at any indentation: their first
    token is code or a string, outside every bracket and string and not after a backslash. (A text
    with a string that does not end never gets here: the statement scanner gave up on it.)"""
    starts: Set[int] = set()
    line, depth, at_line_start = first, 0, True
    for match in _TOKENS.finditer(_joined(lines, first, end)):
        kind = match.lastgroup
        if at_line_start and not (kind == "code" and not match.group().strip()):  # past the indentation
            at_line_start = False
            if depth == 0 and kind in ("code", "string"):
                starts.add(line)
        if kind == "code":
            for bracket in _BRACKETS.findall(match.group()):
                if bracket in "([{":
                    depth += 1
                elif depth:
                    depth -= 1
        elif kind == "string":
            line += line_breaks(match.group())
        elif kind == "continuation":
            line += 1
        elif kind == "newline":
            line += 1
            at_line_start = True
    return starts


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


# A text past this many characters is checked in pieces: libcst's tree costs about 570 bytes of
# memory per character of source, so a 10 MB file of traces would need about 6 GB at once.
PIECE_SIZE = 250_000
# A piece that needs more than this share of the file: parse the file whole instead.
MOST = 0.8


def pieces(text: str, trace_opener: Pattern[str], size: Optional[int] = None,
           statements: Optional[List[Tuple[int, int]]] = None) -> Optional[List["Piece"]]:
    """A text longer than `size` cut into pieces of about `size` characters: each is a run of
    top-level statements, in their order, with the statements elsewhere in the file that the run
    needs (`dependencies`: those binding what it reads, those reading what its traces bind), as
    (piece text, the original 1-based line of each of its lines). Every statement is in the run of
    one piece, so its own findings are reported. None when the text is small, cannot be cut at
    statements, or one piece would need nearly all of it. `statements`: the `Sliced.statements`
    that `text` was sliced with (scanning a huge text for them again costs a second or more)."""
    from nnsight_lint.engine.dependencies import Graph, names_of_all

    size = PIECE_SIZE if size is None else size
    if len(text) <= size:
        return None
    lines = LINE_BREAK.split(text)
    if statements is None:
        starts = _statement_starts(text, lines)
        if starts is None:
            return None
        statements = _group(lines, starts)
    else:  # the blanked lines between them are empty: each belongs to the statement before, as a scan says
        firsts = [first for first, _ in statements]
        statements = list(zip([0, *firsts[1:]], [*firsts[1:], len(lines)]))
    breaks = [m.group() for m in LINE_BREAK.finditer(text)] + [""]
    names, traces, sizes = [], set(), []
    sources = [_joined(lines, first, end) for first, end in statements]
    for index, (source, found) in enumerate(zip(sources, names_of_all(sources))):
        if found is None:
            return None  # a statement CPython cannot read alone: the whole file's parse says why
        names.append(found)
        sizes.append(len(source) + 1)
        if trace_opener.search(source) is not None:
            traces.add(index)
    runs: List[List[int]] = [[]]
    run_size = 0
    for index, statement_size in enumerate(sizes):
        if runs[-1] and run_size + statement_size > size:
            runs.append([])
            run_size = 0
        runs[-1].append(index)
        run_size += statement_size
    if len(runs) < 2:
        return None
    graph = Graph(names)
    cut = []
    for run in runs:
        included = sorted(graph.needed(run, traces))
        if sum(sizes[i] for i in included) > MOST * len(text):
            return None  # one piece is nearly the file: parse it whole, once
        chunks = ["".join(lines[n] + (breaks[n] or "\n" * bool(lines[n])) for n in range(*statements[i]))
                  for i in included]
        ends = list(itertools.accumulate(end - first for first, end in (statements[i] for i in included)))
        numbers = [n + 1 for i in included for n in range(*statements[i])]
        cut.append(Piece("".join(chunks), numbers, list(zip([0, *ends[:-1]], ends))))
    return cut


class Piece(tuple):
    """A piece of a huge file, as `pieces` cuts it: unpacks as (its text, the file's 1-based line for
    each of its lines). `statements`: each of its top-level statements' lines in its text, as cut
    (as `Sliced.statements`)."""

    def __new__(cls, text: str, lines: List[int], statements: List[Tuple[int, int]]) -> "Piece":
        piece = super().__new__(cls, (text, lines))
        piece.statements = statements
        return piece
