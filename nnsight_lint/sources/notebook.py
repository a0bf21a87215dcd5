"""Jupyter notebooks (nbformat 4): read the JSON, mask IPython syntax, lint the code cells as one
program, map positions back to cells, and splice fixed cell sources into the original text.

- A cell is named by its 1-based position among the notebook's CODE cells (markdown and raw cells
  are not counted): the `4` of `nb.ipynb:cell 4:3:12`. Execution counts are not stable, positions are.
- The code cells are joined in document order into one source, so a helper defined in cell 2 is
  visible to a trace in cell 5, as in a `.py` file. A cell that does not parse on its own is reported
  as NNL000 and left out of the join; the other cells are still checked.
- IPython syntax is masked before parsing, line for line (positions do not move): a cell whose first
  line starts with `%%` entirely, unless its magic runs the body as Python (`%%time`, `%%timeit`,
  `%%capture`, `%%prun`: only the magic line is masked, and the body is linted as any cell);
  otherwise statement lines starting with `%`, `!` or `?`, ending in `?` (`obj?`, `obj??`), or
  assigning one (`files = !ls`, `t = %timeit -o f()`).
- Fixing rewrites only the `source` values of the cells that change, in their own form (a string, or
  a list of lines); every other character of the file stays as it was.
- `raw_offset` says where a character of a cell's source sits in the JSON text (inside its string,
  escapes counted), for outputs that point into the stored file.

The doors do not call this module directly: `source.NotebookFile` (a .ipynb) and `source.Cells`
(code cells, e.g. from an editor) are the notebook kinds of document.
"""
from __future__ import annotations

import codecs
import difflib
import json
import os
import re
from dataclasses import dataclass, replace
from json.decoder import scanstring
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

from nnsight_lint import messages
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position
from nnsight_lint.sources.discovery import NOTEBOOK_SUFFIXES
from nnsight_lint.engine.depth import refusal
from nnsight_lint.engine.lint import (DEFAULT_OPTIONS, LintOptions, check_module, could_have_findings, hidden_as_demos,
                                      parse_error, parse_sliced, sliced_text, syntax_error)
from nnsight_lint.analysis.deliberate import says_the_next_cell_fails
from nnsight_lint.engine.text import common_ends, line_breaks, split_lines_keepends



def is_notebook(path: str) -> bool:
    return path.endswith(NOTEBOOK_SUFFIXES)


def looks_like_notebook(source: Union[bytes, str]) -> bool:
    """Is this nbformat JSON? For source whose name says nothing (stdin without a filename)."""
    text = source.decode("utf-8-sig", "replace") if isinstance(source, bytes) else source.lstrip("\ufeff")
    if not text.lstrip().startswith("{"):
        return False
    try:
        data = _DECODER.decode(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "nbformat" in data and "cells" in data


_PERCENT_CELL = re.compile(r"[ \t]*#[ \t]*%%")  # `# %%`, `#%%`, `# %% [markdown]`: jupytext, VS Code


def is_percent_script(source: str) -> bool:
    """Has the text a `# %%` cell marker line?"""
    return "%%" in source and any(_PERCENT_CELL.match(line) for line in split_lines_keepends(source))


def mask_percent_script(source: str) -> str:
    """A `# %%` script with each cell's IPython lines masked exactly as in a notebook cell (same
    lines and columns); a script without a cell marker comes back unchanged."""
    if "%%" not in source:
        return source
    out: List[str] = []
    cell: List[str] = []
    for line in split_lines_keepends(source):
        if _PERCENT_CELL.match(line):
            out.append(mask("".join(cell))[0])
            out.append(line)
            cell = []
        else:
            cell.append(line)
    if len(out) == 0:  # no marker: not a percent script
        return source
    out.append(mask("".join(cell))[0])
    return "".join(out)


# --- reading ---------------------------------------------------------------------------------


class NotebookError(ValueError):
    """The file is not an nbformat 4 notebook; `line`/`column` locate the problem in the JSON."""

    def __init__(self, detail: str, line: int = 1, column: int = 1):
        super().__init__(detail)
        self.detail, self.line, self.column = detail, line, column


@dataclass(frozen=True)
class CodeCell:
    number: int  # 1-based among code cells
    source: str
    span: Tuple[int, int]  # the `source` value in the notebook text
    items: Optional[Tuple[Tuple[int, int, str], ...]]  # list form: each string's span and value
    shows_error: bool = False  # the markdown right before it says it fails: a demo


@dataclass(frozen=True)
class Notebook:
    text: str  # the JSON, decoded (without a BOM)
    bom: bool
    cells: Tuple[CodeCell, ...]
    python: bool  # False for a notebook whose kernel language is not Python: nothing to check


def read(source: Union[bytes, str]) -> Notebook:
    """The code cells of an nbformat 4 notebook, with where their sources sit in the text."""
    bom = False
    if isinstance(source, bytes):
        bom = source.startswith(codecs.BOM_UTF8)
        try:
            source = source.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise NotebookError(f"is not UTF-8 ({error.reason} at byte {error.start})") from None
    elif source.startswith("\ufeff"):
        bom, source = True, source[1:]
    try:
        data = _DECODER.decode(source)
    except json.JSONDecodeError as error:
        raise NotebookError(f"is not valid JSON: {error.msg}", error.lineno, error.colno) from None
    except RecursionError:
        raise NotebookError("is not valid JSON: it nests too deeply") from None
    if not isinstance(data, dict) or "nbformat" not in data:
        raise NotebookError("is not a Jupyter notebook: no top-level `nbformat` field")
    version = data["nbformat"]
    if version != 4:
        raise NotebookError(
            f"is nbformat {version!r}; only nbformat 4 is supported "
            "(convert it with `jupyter nbconvert --to notebook --nbformat 4`)"
        )
    cells = data.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise NotebookError("has no `cells` list of objects")
    top = {key: (start, end) for key, start, end in _members(source, _skip(source, 0))}
    cell_spans = _elements(source, top["cells"][0])
    code_cells: List[CodeCell] = []
    demos = shown_errors([(cell.get("cell_type"), _markdown_text(cell)) for cell in cells])
    for cell, (start, _) in zip(cells, cell_spans):
        if cell.get("cell_type") != "code":
            continue
        number = len(code_cells) + 1
        value = cell.get("source")
        if not (isinstance(value, str) or isinstance(value, list) and all(isinstance(s, str) for s in value)):
            raise NotebookError(f"has a code cell (cell {number}) whose `source` is not a string or list of strings")
        span = {key: (s, e) for key, s, e in _members(source, start)}["source"]
        items = None
        if isinstance(value, list):
            items = tuple((s, e, text) for (s, e), text in zip(_elements(source, span[0]), value))
            value = "".join(value)
        code_cells.append(CodeCell(number, value, span, items, number in demos))
    return Notebook(source, bom, tuple(code_cells), _is_python(data.get("metadata")))


def _markdown_text(cell: dict) -> str:
    text = cell.get("source") if cell.get("cell_type") == "markdown" else None
    text = "".join(t for t in text if isinstance(t, str)) if isinstance(text, list) else text
    return text if isinstance(text, str) else ""


def shown_errors(cells: Sequence[Tuple[str, str]]) -> FrozenSet[int]:
    """The code cells (1-based among code cells) that show an error on purpose: the markdown cell
    right before one says the next cell fails. `cells`: every cell of the notebook in order, as
    (kind, text) with kind "code", "markdown" or another (raw). One answer for a .ipynb read from
    disk and a notebook an editor syncs (`doors/lsp.py`)."""
    demos, number = set(), 0
    for index, (kind, _) in enumerate(cells):
        if kind != "code":
            continue
        number += 1
        before = cells[index - 1] if index > 0 else None
        if before is not None and before[0] == "markdown" and says_the_next_cell_fails(before[1]):
            demos.add(number)
    return frozenset(demos)


def _is_python(metadata) -> bool:
    """Unless the kernel says it runs another language."""

    def named(table: str, field: str):
        value = metadata.get(table) if isinstance(metadata, dict) else None
        return value.get(field) if isinstance(value, dict) else None

    names = [named("language_info", "name"), named("kernelspec", "language")]
    return all(not isinstance(n, str) or n.lower().startswith(("python", "ipython")) for n in names)


# A structural walk over JSON already known to be valid: where each member's value starts and ends.
_WHITESPACE = re.compile(r"[ \t\n\r]*")


def _integer(digits: str):
    """A JSON integer; one too long for `int()` (4,300+ digits, an output's data) stays its text:
    the linter reads only cell sources, and a fix never rewrites other values."""
    try:
        return int(digits)
    except ValueError:
        return digits


_DECODER = json.JSONDecoder(parse_int=_integer)


def _skip(text: str, index: int) -> int:
    return _WHITESPACE.match(text, index).end()


def _members(text: str, index: int) -> List[Tuple[str, int, int]]:
    """(key, value start, value end) of the object at `index`; a repeated key's last value wins."""
    members, index = [], _skip(text, index + 1)
    while text[index] != "}":
        key, index = scanstring(text, index + 1)
        index = _skip(text, _skip(text, index) + 1)  # past the colon
        _, end = _DECODER.raw_decode(text, index)
        members.append((key, index, end))
        index = _skip(text, end)
        if text[index] == ",":
            index = _skip(text, index + 1)
    return members


def _elements(text: str, index: int) -> List[Tuple[int, int]]:
    """(start, end) of each element of the array at `index`."""
    elements, index = [], _skip(text, index + 1)
    while text[index] != "]":
        _, end = _DECODER.raw_decode(text, index)
        elements.append((index, end))
        index = _skip(text, end)
        if text[index] == ",":
            index = _skip(text, index + 1)
    return elements


# --- masking IPython syntax ------------------------------------------------------------------

# Cell magics whose body is Python that IPython runs in the user's namespace: the body is linted.
PYTHON_BODY_MAGICS = frozenset({"time", "timeit", "capture", "prun"})
# Of those, the ones that compile the body under a name of their own (`<timed exec>`,
# `<magic-timeit>`, `<string>`) instead of running it as a cell: nnsight (0.5 on) cannot read back
# the source of a trace written there (NNL208). `%%capture` runs its body as a cell.
SOURCELESS_BODY_MAGICS = frozenset({"time", "timeit", "prun"})
_CELL_MAGIC = re.compile(r"%%(\w+)")
_ASSIGNED_MAGIC = re.compile(r"[ \t]*[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*[%!]")
_AT_STATEMENT_START = (0, None, False)  # bracket depth, open string quote, backslash continuation
# Every IPython line holds one of these: a magic or escape starts with one (`%`, `!`, `?`), a help
# request ends with `?`, an assigned magic's value starts with `%` or `!`.
_IPYTHON_MARKS = ("%", "!", "?")


def mask(source: str) -> Tuple[str, FrozenSet[int]]:
    """`source` with its IPython lines blanked (same line count), and the 1-based lines masked.

    A masked statement becomes `pass` at its own indentation, so a magic alone in a block keeps
    the block valid; its backslash-continued lines and a whole `%%` cell become empty lines.
    """
    if not any(mark in source for mark in _IPYTHON_MARKS):
        return source, frozenset()  # most cells: no line can be IPython's
    lines = split_lines_keepends(source)
    bodies = [line.rstrip("\r\n") for line in lines]
    endings = [line[len(body):] for line, body in zip(lines, bodies)]
    first, magic = _cell_magic(bodies)
    if first is not None:
        if magic not in PYTHON_BODY_MAGICS:
            return "".join(endings), frozenset(range(1, len(lines) + 1))
        body, body_masked = mask("".join(lines[first + 1 :]))  # the body, as a cell of its own
        head = "".join(endings[: first + 1])
        return head + body, frozenset({first + 1} | {line + first + 1 for line in body_masked})
    out, masked, state, continued = [], set(), _AT_STATEMENT_START, False
    for number, (body, ending) in enumerate(zip(bodies, endings), start=1):
        if continued:
            out.append(ending)
            masked.add(number)
            continued = body.endswith("\\")
            continue
        after, comment = _scan(body, state)
        if state == _AT_STATEMENT_START and _is_ipython(body, comment, after):
            indent = body[: len(body) - len(body.lstrip())]
            out.append(f"{indent}pass{ending}")
            masked.add(number)
            continued = body.endswith("\\")
            continue
        out.append(body + ending)
        state = after
    return "".join(out), frozenset(masked)


def _cell_magic(bodies: Sequence[str]) -> Tuple[Optional[int], Optional[str]]:
    """(index of the line, name) of the cell magic a cell's lines start with: its first line that
    is not blank starts with `%%`; (None, None) for a cell that is no cell magic."""
    first = next((index for index, body in enumerate(bodies) if body.strip()), None)
    if first is None or not bodies[first].startswith("%%"):
        return None, None
    magic = _CELL_MAGIC.match(bodies[first])
    return first, magic.group(1) if magic is not None else None


def sourceless_lines(source: str) -> Dict[int, str]:
    """The 1-based lines of a cell that IPython compiles under a magic's own name (the body of a
    `%%time`, also inside a `%%capture`), each with that magic's name; {} for most cells."""
    if "%%" not in source:
        return {}  # no cell magic
    lines = split_lines_keepends(source)
    first, magic = _cell_magic([line.rstrip("\r\n") for line in lines])
    if first is None or magic not in PYTHON_BODY_MAGICS:
        return {}
    if magic in SOURCELESS_BODY_MAGICS:
        return {number: magic for number in range(first + 2, len(lines) + 1)}
    inner = sourceless_lines("".join(lines[first + 1 :]))
    return {number + first + 1: name for number, name in inner.items()}


def _is_ipython(body: str, comment: Optional[int], after) -> bool:
    stripped = body.lstrip()
    if not stripped:
        return False
    if stripped[0] in "%!?" or _ASSIGNED_MAGIC.match(body):
        return True
    code = body[:comment].rstrip() if comment is not None else body.rstrip()
    return code.endswith("?") and after == _AT_STATEMENT_START


def _scan(body: str, state) -> Tuple[tuple, Optional[int]]:
    """A small lexer: the state after `body` and where its comment starts, if it has one."""
    depth, quote, _ = state
    index, comment = 0, None
    while index < len(body) or quote:
        if quote:
            end = _string_end(body, index, quote)
            if end is None:
                if len(quote) == 3 or body.endswith("\\"):
                    return (depth, quote, False), None
                break  # an unterminated string: the parser will say so
            quote, index = None, end
            continue
        char = body[index]
        if char == "#":
            comment = index
            break
        if char in "\"'":
            quote = body[index : index + 3] if body[index : index + 3] in ('"""', "'''") else char
            index += len(quote)
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        index += 1
    return (depth, None, comment is None and body.endswith("\\")), comment


def _string_end(body: str, index: int, quote: str) -> Optional[int]:
    while index < len(body):
        if body[index] == "\\":
            index += 2
        elif body.startswith(quote, index):
            return index + len(quote)
        else:
            index += 1
    return None


# --- linting ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Part:
    number: int  # code-cell number
    first: int  # its first line in the joined source
    count: int  # its lines
    masked: FrozenSet[int]


class _Layout:
    """Where each cell sits in the joined source."""

    def __init__(self, parts: Sequence[_Part]):
        self.parts = list(parts)

    def locate(self, position: Position, number: Optional[int] = None) -> Optional[Tuple[int, Position]]:
        """(cell, position in it); an end-exclusive position just past a cell's last line maps
        into cell `number` when given."""
        for part in self.parts:
            inside = part.first <= position.line < part.first + part.count
            just_past = part.number == number and position.line == part.first + part.count and position.column == 1
            if inside or just_past:
                return part.number, Position(position.line - part.first + 1, position.column)
        return None

    def masked(self, number: int) -> FrozenSet[int]:
        return next(p.masked for p in self.parts if p.number == number)


_LINE_REFERENCE = re.compile(r"\bline (\d+)\b")


def demo_cells(notebook: Notebook, options: LintOptions = DEFAULT_OPTIONS) -> FrozenSet[int]:
    """The code cells whose findings are not reported: the notebook says they fail on purpose."""
    if options.report_deliberate_errors:
        return frozenset()
    return frozenset(cell.number for cell in notebook.cells if cell.shows_error)


def invalid(error: NotebookError, path: str, options: LintOptions = DEFAULT_OPTIONS) -> List[Diagnostic]:
    from nnsight_lint import rules

    if "NNL000" not in rules.selected(options.select, options.ignore, options.target_version):
        return []
    text = messages.NNL000_NOTEBOOK.format(name=os.path.basename(path), detail=error.detail)
    at = Position(max(error.line, 1), max(error.column, 1))
    return [Diagnostic(path, "NNL000", text, at, at)]


def lint_cells(
    sources: Sequence[str], path: str, options: LintOptions = DEFAULT_OPTIONS, demos: FrozenSet[int] = frozenset(),
    document=None,
) -> List[Diagnostic]:
    """Findings for the code cells `sources` (cell N is `sources[N - 1]`), located by cell; none
    but NNL000 in the `demos` cells. `document`: an `incremental.Document` that linted an earlier
    version of these cells."""
    return [diagnostic for diagnostic, _ in _lint(sources, path, options, demos, document)]


_CellEdits = Tuple[Tuple[int, Edit], ...]  # (cell, edit in that cell's lines)


def _lint(
    sources: Sequence[str], path: str, options: LintOptions, demos: FrozenSet[int] = frozenset(), document=None
) -> List[Tuple[Diagnostic, Optional[_CellEdits]]]:
    """Each finding in cell coordinates, with its fix's edits per cell (None: no fix to apply)."""
    from nnsight_lint import rules

    codes = rules.selected(options.select, options.ignore, options.target_version)
    found: List[Tuple[Diagnostic, Optional[_CellEdits]]] = []
    joined: List[str] = []
    parts: List[_Part] = []
    magics: Dict[int, str] = {}  # a line of the joined source IPython compiles under a magic's name
    line = 1
    for number, source in enumerate(sources, start=1):
        masked, masked_lines = mask(source)
        if not masked.strip():
            continue
        error = document.cell_error(masked, path) if document is not None else syntax_error(masked, path)
        if error is not None:
            if "NNL000" in codes:
                found.append((replace(error, cell=number), None))
            continue
        if not masked.endswith(("\n", "\r")):
            masked += "\n"
        count = line_breaks(masked)  # its lines: it ends in a break
        joined.append(masked)
        parts.append(_Part(number, line, count, masked_lines))
        magics.update((line + cell_line - 1, name) for cell_line, name in sourceless_lines(source).items())
        line += count
    text = "".join(joined)
    if parts and could_have_findings(text, options):
        sliced = sliced_text(text, options, document)
        if sliced is not None and sliced.blanked and refusal(sliced.blanked) is not None:
            sliced = None  # a definition libcst must not be given: the whole join's parse refuses it, as it is
        # The definitions blanked out of the tree need no syntax check of their own
        # (`error_in_blanked`): each compiled alone in its cell above.
        module, blanked = parse_sliced(sliced, text, path, document)
        if isinstance(module, Diagnostic) and "NNL000" in codes:
            # CPython compiled every cell, and libcst refuses one: it says which.
            for part, source in zip(parts, joined):
                error = parse_error(source, path)
                if error is not None:
                    found.append((replace(error, cell=part.number), None))
        if not isinstance(module, Diagnostic):  # every cell parses alone, so the join does too
            layout = _Layout(parts)
            cache, memo = (None, None) if document is None else (document.positions, document.memo)
            statements = sliced.statements if blanked is not None else None  # the tree is of `sliced.text`
            found.extend(_in_cells(d, layout) for d in check_module(module, path, codes, options, text,
                                                                   positions_cache=cache, cell_magics=magics,
                                                                   document_memo=memo, statements=statements))
    shown = [pair for pair in found if pair[0].cell not in demos or pair[0].code == "NNL000"]
    if len(shown) < len(found):
        hidden_as_demos(pair[0] for pair in found if pair[0].cell in demos and pair[0].code != "NNL000")
    found = shown
    return sorted(found, key=lambda pair: pair[0].sort_key())


def _in_cells(diagnostic: Diagnostic, layout: _Layout) -> Tuple[Diagnostic, Optional[_CellEdits]]:
    located = layout.locate(diagnostic.start)
    if located is None:
        return diagnostic, None
    number, start = located
    end = layout.locate(diagnostic.end, number)
    end = end[1] if end is not None and end[0] == number else start

    def refer(match: "re.Match[str]") -> str:
        where = layout.locate(Position(int(match.group(1)), 1))
        if where is None:
            return match.group(0)
        if where[0] == number:
            return f"line {where[1].line}"
        return f"line {where[1].line} of cell {where[0]}"

    message, detail = (_LINE_REFERENCE.sub(refer, text) for text in (diagnostic.message, diagnostic.detail))
    edits = _edits_in_cells(diagnostic.fix, layout)
    fix = None
    if diagnostic.fix is not None and edits is not None:
        # An Edit names no cell: a fix that reaches into another cell (a helper's flag defined
        # there) is shown as fixable without edits; `fix_cells` applies it all the same.
        own = tuple(edit for cell, edit in edits if cell == number)
        fix = replace(diagnostic.fix, edits=own if len(own) == len(edits) else ())
    return replace(diagnostic, start=start, end=end, message=message, detail=detail, cell=number, fix=fix), edits


def _edits_in_cells(fix: Optional[Fix], layout: _Layout) -> Optional[_CellEdits]:
    """The fix's edits in cell coordinates; None when one spans cells or touches a masked line."""
    if fix is None:
        return None
    edits = []
    for edit in fix.edits:
        start = layout.locate(edit.start)
        end = layout.locate(edit.end, start[0] if start else None)
        if start is None or end is None or start[0] != end[0]:
            return None
        if any(line in layout.masked(start[0]) for line in range(start[1].line, end[1].line + 1)):
            return None
        edits.append((start[0], replace(edit, start=start[1], end=end[1])))
    return tuple(edits)


# --- fixing ----------------------------------------------------------------------------------


def fix_cells(
    sources: Sequence[str],
    path: str,
    options: LintOptions = DEFAULT_OPTIONS,
    unsafe: bool = False,
    demos: FrozenSet[int] = frozenset(),
) -> Tuple[List[str], int, List[Diagnostic]]:
    """Apply every applicable fix to the cells, re-linting the whole notebook after each pass.

    Returns (new sources, fixes applied, remaining findings). Raises FixError if a fix would leave
    a cell that does not parse.
    """
    from nnsight_lint.engine.fixing import MAX_PASSES, FixError, compose, syntax_error

    sources, fixed = list(sources), 0
    for _ in range(MAX_PASSES):
        found = _lint(sources, path, options, demos)
        applicable = [(d, e) for d, e in found if d.fix is not None and e is not None and (d.fix.safe or unsafe)]
        if not applicable:
            return sources, fixed, [d for d, _ in found]
        # Each fix whole or not at all (one that overlaps another waits for the next pass), as in a file.
        edited = {number for _, cell_edits in applicable for number, _ in cell_edits}
        texts, applied = compose({n: sources[n - 1] for n in edited}, [e for _, e in applicable])
        new = list(sources)
        for number, text in texts.items():
            new[number - 1] = text
            # CPython's compiler too (it rejects a repeated keyword), unless the cell never compiled.
            strict = syntax_error(mask(sources[number - 1])[0]) is None
            if text != sources[number - 1] and syntax_error(mask(text)[0], strict) is not None:
                codes = ", ".join(sorted({d.code for d, e in applicable if any(n == number for n, _ in e)}))
                raise FixError(f"a fix for {codes} would break the syntax of cell {number}")
        if new == sources:
            break
        sources, fixed = new, fixed + applied
    return sources, fixed, lint_cells(sources, path, options, demos)


def write_sources(notebook: Notebook, sources: Sequence[str]) -> str:
    """The notebook text with the changed cells' `source` values replaced, in their own form."""
    pieces, cursor = [], 0
    for start, end, content in replacements(notebook, sources):
        pieces += [notebook.text[cursor:start], content]
        cursor = end
    pieces.append(notebook.text[cursor:])
    return "".join(pieces)


def replacements(notebook: Notebook, sources: Sequence[str]) -> List[Tuple[int, int, str]]:
    """What `write_sources` changes, as (start, end, new text) spans of the notebook text, in
    order; each trimmed to the characters that differ, so fixes of different lines stay apart."""
    ascii_only = _escapes_non_ascii(notebook.text)
    spans = []
    for cell, new in zip(notebook.cells, sources):
        if new != cell.source:
            spans.extend(_replacements(notebook.text, cell, new, ascii_only))
    return [_trimmed(notebook.text, span) for span in sorted(spans)]


def _trimmed(text: str, span: Tuple[int, int, str]) -> Tuple[int, int, str]:
    start, end, content = span
    head, tail = common_ends(text[start:end], content)
    return start + head, end - tail, content[head : len(content) - tail]


def raw_offset(notebook: Notebook, cell: CodeCell, index: int) -> int:
    """Where the `index`-th character of the cell's source is in the notebook text: inside the
    JSON string that holds it (the list item, for a source in list form), escapes counted."""
    items = cell.items if cell.items is not None else ((cell.span[0], cell.span[1], cell.source),)
    if not items:
        return cell.span[0] + 1
    before = 0
    for number, (start, _, value) in enumerate(items, start=1):
        if index < before + len(value) or number == len(items):  # the end of the source: its last string's
            return _string_index(notebook.text, start, min(index - before, len(value)))
        before += len(value)
    return cell.span[0] + 1  # not reached


def _string_index(text: str, start: int, count: int) -> int:
    """The offset of character `count` of the JSON string literal at `start` (its opening quote)."""
    at = start + 1
    for _ in range(count):
        if text[at] != "\\":
            at += 1
        elif text[at + 1] != "u":
            at += 2
        elif 0xD800 <= int(text[at + 2 : at + 6], 16) < 0xDC00 and _low_surrogate(text, at + 6):
            at += 12  # one character written as a surrogate pair
        else:
            at += 6
    return at


def _low_surrogate(text: str, at: int) -> bool:
    return text.startswith("\\u", at) and 0xDC00 <= int(text[at + 2 : at + 6], 16) < 0xE000


def _replacements(text: str, cell: CodeCell, new: str, ascii_only: bool) -> List[Tuple[int, int, str]]:
    dump = lambda s: json.dumps(s, ensure_ascii=ascii_only)  # noqa: E731
    if cell.items is None:
        return [(cell.span[0], cell.span[1], dump(new))]
    old_lines, new_lines = [item[2] for item in cell.items], split_lines_keepends(new)
    if old_lines == split_lines_keepends(cell.source) and len(new_lines) == len(old_lines):
        # Same lines, one string each: replace only the strings that changed.
        return [(s, e, dump(line)) for (s, e, old), line in zip(cell.items, new_lines) if line != old]
    if not new_lines:
        return [(cell.span[0], cell.span[1], "[]")]
    items = cell.items
    if items:
        opening = text[cell.span[0] + 1 : items[0][0]]
        separator = text[items[0][1] : items[1][0]] if len(items) > 1 else "," + opening
        closing = text[items[-1][1] : cell.span[1] - 1]
    else:
        opening, separator, closing = "", ", ", ""
    body = separator.join(dump(line) for line in new_lines)
    return [(cell.span[0], cell.span[1], f"[{opening}{body}{closing}]")]


_UNICODE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u([0-9a-fA-F]{4})")


def _escapes_non_ascii(text: str) -> bool:
    """Whether the file was written with `ensure_ascii` (non-ASCII text as \\uXXXX escapes)."""
    return text.isascii() and any(int(m.group(1), 16) >= 0x80 for m in _UNICODE_ESCAPE.finditer(text))


def cell_diff(path: str, before: str, after: str) -> str:
    """A unified diff per changed code cell, headed `a/nb.ipynb:cell N` (JSON texts in)."""
    old, new = read(before), read(after)
    out = []
    prefix_a, prefix_b = ("", "") if os.path.isabs(path) else ("a/", "b/")
    for was, now in zip(old.cells, new.cells):
        if was.source == now.source:
            continue
        lines = difflib.unified_diff(
            was.source.splitlines(keepends=True), now.source.splitlines(keepends=True),
            f"{prefix_a}{path}:cell {was.number}", f"{prefix_b}{path}:cell {now.number}",
        )
        out.extend(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
    return "".join(out)
