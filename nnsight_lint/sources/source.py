"""What the linter reads, one type per kind of document: a Python file, a `# %%` percent script, a
Jupyter notebook, the code cells of a notebook open in an editor, an editor buffer.

Each owns three things, so that no door special-cases a kind (ruff's `SourceKind` does the same):
- the Python text the rules see (IPython magics masked, line for line: positions do not move);
- where a finding is in the document itself: `locate` gives its place in the stored text (for a
  notebook, the line of the .ipynb JSON that holds the source line and the column inside that
  string), `place` names it in the user's terms ("cell 3, line 2");
- how edits come back to the document: `fix` (the whole fixer, as `check --fix` runs it) and
  `edits` (one finding's fix as edits on the stored text, e.g. for a SARIF consumer).

Findings carry positions in the document's Python coordinates: a plain file's lines, or (for
cells) the cell number and the line and column in that cell. They are turned into stored-text
positions only when a door prints them.
"""
from __future__ import annotations

import bisect
import codecs
from dataclasses import dataclass, field, replace
from typing import Callable, FrozenSet, List, Optional, Sequence, Tuple, Union

from nnsight_lint.sources import notebook as ipynb
from nnsight_lint.diagnostics import Diagnostic, Edit, Position
from nnsight_lint.sources.discovery import NOTEBOOK_SUFFIXES
from nnsight_lint.engine.lint import DEFAULT_OPTIONS, LintOptions, lint_source
from nnsight_lint.engine.text import line_starts, split_lines, split_lines_keepends

Data = Union[bytes, str]


@dataclass
class FixResult:
    """One document through the fixer: its text before and after, and what is left to report."""

    path: str
    before: str = ""
    after: str = ""
    data: bytes = b""  # `after`, encoded as the file was (the source itself when nothing changed)
    fixed: int = 0
    remaining: List[Diagnostic] = field(default_factory=list)
    error: Optional[str] = None  # set: nothing of this file was fixed or written
    notice: Optional[str] = None  # fixed, but something the user should know (its owner changed)

    @property
    def changed(self) -> bool:
        return self.after != self.before


class Source:
    """A document to lint. Subclasses say what the rules see and how findings map back."""

    path: str

    def lint(self, options: LintOptions = DEFAULT_OPTIONS, document=None) -> List[Diagnostic]:
        """The findings; `document`: an `incremental.Document` that linted an earlier version."""
        raise NotImplementedError

    def fix(self, options: LintOptions = DEFAULT_OPTIONS, unsafe: bool = False) -> FixResult:
        raise NotImplementedError

    def locate(self, diagnostic: Diagnostic) -> Tuple[Position, Position]:
        """The finding's start and end in the stored text of the document."""
        return diagnostic.start, diagnostic.end

    def edits(self, diagnostic: Diagnostic) -> Tuple[Edit, ...]:
        """The finding's fix as edits on the stored text; () when it cannot be given so."""
        return diagnostic.fix.edits if diagnostic.fix is not None else ()

    def place(self, diagnostic: Diagnostic) -> str:
        """Where the finding is, in the user's terms, when the stored position does not say it."""
        return ""

    def lines(self, diagnostic: Diagnostic) -> Optional[List[str]]:
        """The lines (with their breaks) that the finding's line numbers count, None if unknown."""
        return None

    def diff(self, before: str, after: str) -> str:
        """What a fix changed, as a unified diff (`--diff`)."""
        from nnsight_lint.engine.fixing import unified_diff

        return unified_diff(self.path, before, after)


def of(data: Data, path: str) -> Source:
    """The source for a file's content: a notebook by its name (stdin, named "-", by its content),
    a `# %%` script by its cell markers, else a Python file."""
    if path.endswith(NOTEBOOK_SUFFIXES) or (path == "-" and ipynb.looks_like_notebook(data)):
        return NotebookFile(path, data)
    if _has_percent_cells(data):
        return PercentScript(path, data)
    return PythonFile(path, data)


def lint(data: Data, path: str, options: LintOptions = DEFAULT_OPTIONS) -> Tuple[List[Diagnostic], Optional[str]]:
    """(findings, None), or ([], why the document could not be checked)."""
    return checked(of(data, path), options)


def checked(source: Source, options: LintOptions = DEFAULT_OPTIONS, document=None) -> Tuple[List[Diagnostic], Optional[str]]:
    """`source.lint`, where a bug of ours stays with this document: ([], what went wrong); with
    the garbage collector held off meanwhile (`engine.collection`)."""
    from nnsight_lint.engine.collection import paused

    try:
        with paused():
            return source.lint(options, document), None
    except RecursionError:
        return [], "internal error: the file nests too deeply to analyse"
    except Exception as error:
        return [], f"internal error: {type(error).__name__}: {error}"


def for_editor(text: str, path: str, cell: bool = False) -> Source:
    """The source for an editor's text document; `cell`: a notebook cell sent on its own, which
    holds Python with IPython syntax, never notebook JSON."""
    if cell:
        return Cells(path, [text], single=True)
    return PercentScript(path, text) if _has_percent_cells(text) else PythonFile(path, text)


def _has_percent_cells(data: Data) -> bool:
    if (b"%%" if isinstance(data, bytes) else "%%") not in data:
        return False
    text = _text(data)
    return text is not None and ipynb.is_percent_script(text)


def _text(data: Data) -> Optional[str]:
    from nnsight_lint.engine.text import decode

    if isinstance(data, str):
        return data
    try:
        return decode(data)[0]
    except (SyntaxError, UnicodeDecodeError, LookupError):  # the engine reports it as NNL000
        return None


# --- Python files -------------------------------------------------------------------------------


class PythonFile(Source):
    """A `.py` file or an editor buffer: the rules see its text as it is."""

    def __init__(self, path: str, data: Data):
        self.path, self.data = path, data

    def python(self, text: Data) -> Data:
        """The text the rules see for `text` (this document's text, or a fixed version of it)."""
        return text

    def lint(self, options: LintOptions = DEFAULT_OPTIONS, document=None) -> List[Diagnostic]:
        return lint_source(self.python(self.data), self.path, options, document)

    def lines(self, diagnostic: Diagnostic) -> Optional[List[str]]:
        text = _text(self.data)
        return None if text is None else split_lines_keepends(text)

    def fix(self, options: LintOptions = DEFAULT_OPTIONS, unsafe: bool = False) -> FixResult:
        """Fix the document in memory; `data` is what to write back (or print, for stdin)."""
        from nnsight_lint.engine.fixing import FileSyntaxError, FixError
        from nnsight_lint.engine.text import decode

        source = self.data if isinstance(self.data, bytes) else self.data.encode("utf-8")
        try:
            text, encoding = decode(source) if isinstance(self.data, bytes) else (self.data, "utf-8")
        except (SyntaxError, UnicodeDecodeError, LookupError):
            found, error = checked(self, options)  # NNL000 says why
            return FixResult(self.path, data=source, remaining=found, error=error)
        try:
            outcome = self.fixed(text, options, unsafe)
            data = outcome.text.encode(encoding) if outcome.changed else source
            return FixResult(self.path, text, outcome.text, data, outcome.fixed, outcome.remaining)
        except FileSyntaxError as error:
            problem = f"not fixed: {error}"  # the user's to fix; its NNL000 is among the findings
        except FixError as error:
            problem = f"internal error: {error}; the file was left unchanged"
        except UnicodeEncodeError as error:
            problem = f"cannot write back as {encoding}: {error.reason}; the file was left unchanged"
        except RecursionError:
            problem = "internal error: the file nests too deeply to analyse"
        except Exception as error:
            problem = f"internal error: {type(error).__name__}: {error}"
        # Nothing was fixed: the file's findings are still there to report.
        return FixResult(self.path, text, text, source, remaining=checked(self, options)[0], error=problem)

    def fixed(self, text: str, options: LintOptions, unsafe: bool = False, lenient: bool = False):
        """`fixing.fix_text` on this document's text. `lenient` (an editor's fix-all): a syntax error
        outside the code the fixes touch (a helper being typed) does not stop it."""
        from nnsight_lint.engine.lint import parsed_part
        from nnsight_lint.engine.fixing import fix_text

        part = (lambda t: parsed_part(t, options)) if lenient else None
        return fix_text(text, lambda t: lint_source(t, self.path, options), unsafe, checked_part=part)


class PercentScript(PythonFile):
    """A `# %%` script (jupytext, VS Code's interactive window): each cell's IPython lines
    (`!pip install ...`, `%magic`) are masked as in a notebook; fixes land on the original lines."""

    def python(self, text: Data) -> Data:
        decoded = _text(text)
        return text if decoded is None else ipynb.mask_percent_script(decoded)

    def fixed(self, text: str, options: LintOptions, unsafe: bool = False, lenient: bool = False):
        from nnsight_lint.engine.lint import parsed_part
        from nnsight_lint.engine.fixing import FileSyntaxError, _libcst_error, fix_text

        masked = self.python
        if not lenient:
            own = _libcst_error(masked(text))
            if own is not None:
                raise FileSyntaxError(f"the file has a syntax error ({own}); fix it first")
        # The fixes are applied to the text as written; what must keep parsing is its masked form.
        part = (lambda t: parsed_part(masked(t), options)) if lenient else masked
        return fix_text(text, lambda t: self._fixable(t, options), unsafe, checked_part=part)

    def _fixable(self, text: str, options: LintOptions) -> List[Diagnostic]:
        """The findings of `text`, without the fixes that would edit a masked (IPython) line."""
        masked = self.python(text)
        differ = {n for n, (a, b) in enumerate(zip(split_lines(text), split_lines(masked)), 1) if a != b}
        found = lint_source(masked, self.path, options)
        touches = lambda d: any(  # noqa: E731
            line in differ for e in d.fix.edits for line in range(e.start.line, e.end.line + 1)
        )
        return [replace(d, fix=None) if d.fix is not None and touches(d) else d for d in found]


# --- notebooks ----------------------------------------------------------------------------------


class Cells(Source):
    """Code cells joined in order, so names from earlier cells are visible (an open notebook in an
    editor, or the cells of a .ipynb). Findings name their cell (1-based among the code cells);
    `single`: one cell sent alone, whose findings are in its own lines."""

    def __init__(self, path: str, sources: Sequence[str], demos: FrozenSet[int] = frozenset(), single: bool = False):
        self.path, self.sources, self.demos, self.single = path, list(sources), demos, single

    def lint(self, options: LintOptions = DEFAULT_OPTIONS, document=None) -> List[Diagnostic]:
        found = ipynb.lint_cells(self.sources, self.path, options, self.demos, document)
        return [replace(d, cell=None) for d in found] if self.single else found

    def fixed(self, options: LintOptions = DEFAULT_OPTIONS, unsafe: bool = False) -> Tuple[List[str], int, List[Diagnostic]]:
        """(new sources, fixes applied, remaining findings); raises FixError as `notebook.fix_cells`."""
        sources, fixed, remaining = ipynb.fix_cells(self.sources, self.path, options, unsafe, self.demos)
        return sources, fixed, [replace(d, cell=None) for d in remaining] if self.single else remaining


def notebook_cells(path: str, cells: Sequence[Tuple[str, str]], options: LintOptions = DEFAULT_OPTIONS) -> Cells:
    """The code cells of a notebook given as every cell's (kind, text) in order ("code",
    "markdown", ...), with the demos its markdown names: what `check` lints of the same .ipynb
    (an editor's notebook, `doors/lsp.py`)."""
    demos = frozenset() if options.report_deliberate_errors else ipynb.shown_errors(cells)
    return Cells(path, [text for kind, text in cells if kind == "code"], demos)


class NotebookFile(Source):
    """An nbformat 4 notebook: its code cells are what the rules see; positions in the file are in
    its JSON, and fixes rewrite only the changed cells' `source` values."""

    def __init__(self, path: str, data: Data):
        self.path, self.data = path, data
        try:
            self.notebook: Optional[ipynb.Notebook] = ipynb.read(data)
            self.error: Optional[ipynb.NotebookError] = None
        except ipynb.NotebookError as error:
            self.notebook, self.error = None, error

    def cells(self, options: LintOptions = DEFAULT_OPTIONS) -> Cells:
        return Cells(self.path, [cell.source for cell in self.notebook.cells], ipynb.demo_cells(self.notebook, options))

    def lint(self, options: LintOptions = DEFAULT_OPTIONS, document=None) -> List[Diagnostic]:
        if self.error is not None:
            return ipynb.invalid(self.error, self.path, options)
        return self.cells(options).lint(options) if self.notebook.python else []

    def fix(self, options: LintOptions = DEFAULT_OPTIONS, unsafe: bool = False) -> FixResult:
        """`before`/`after` are the JSON text, `data` the bytes to write."""
        from nnsight_lint.engine.fixing import FixError

        source = self.data if isinstance(self.data, bytes) else self.data.encode("utf-8")
        if self.error is not None:
            return FixResult(self.path, data=source, remaining=self.lint(options))  # data: write nothing
        notebook = self.notebook
        text = notebook.text
        if not notebook.python:
            return FixResult(self.path, text, text, source)
        try:
            sources, fixed, remaining = self.cells(options).fixed(options, unsafe)
            after = ipynb.write_sources(notebook, sources)
            data = (codecs.BOM_UTF8 if notebook.bom else b"") + after.encode("utf-8") if after != text else source
        except FixError as error:
            problem = f"internal error: {error}; the file was left unchanged"
        except Exception as error:
            problem = f"internal error: {type(error).__name__}: {error}"
        else:
            return FixResult(self.path, text, after, data, fixed, remaining)
        # Nothing was fixed: the notebook's findings are still there to report (and to count).
        return FixResult(self.path, text, text, source, remaining=checked(self, options)[0], error=problem)

    def _cell(self, diagnostic: Diagnostic) -> Optional[ipynb.CodeCell]:
        if self.notebook is None or diagnostic.cell is None or not 1 <= diagnostic.cell <= len(self.notebook.cells):
            return None
        return self.notebook.cells[diagnostic.cell - 1]

    def locate(self, diagnostic: Diagnostic) -> Tuple[Position, Position]:
        """In the JSON: the line holding the cell's source line, the column inside the string."""
        cell = self._cell(diagnostic)
        if cell is None:  # the file's own error (NNL000 on its JSON) is already there
            return diagnostic.start, diagnostic.end
        to_raw = self._raw_positions()
        return to_raw(ipynb.raw_offset(self.notebook, cell, _offset(cell.source, diagnostic.start))), to_raw(
            ipynb.raw_offset(self.notebook, cell, _offset(cell.source, diagnostic.end))
        )

    def edits(self, diagnostic: Diagnostic) -> Tuple[Edit, ...]:
        """The fix as edits on the JSON text: applied, they give the notebook `fix` writes for it."""
        from nnsight_lint.engine.fixing import apply_edits

        cell = self._cell(diagnostic)
        if cell is None or diagnostic.fix is None or not diagnostic.fix.edits:
            return ()
        sources = [c.source for c in self.notebook.cells]
        sources[cell.number - 1] = apply_edits(cell.source, diagnostic.fix.edits)
        to_raw = self._raw_positions()
        return tuple(Edit(to_raw(start), to_raw(end), content) for start, end, content in ipynb.replacements(self.notebook, sources))

    def place(self, diagnostic: Diagnostic) -> str:
        return f"cell {diagnostic.cell}, line {diagnostic.line}" if diagnostic.cell is not None else ""

    def lines(self, diagnostic: Diagnostic) -> Optional[List[str]]:
        cell = self._cell(diagnostic)
        return None if cell is None else split_lines_keepends(cell.source)  # the JSON's own error: no snippet

    def diff(self, before: str, after: str) -> str:
        """Per changed code cell, headed `a/nb.ipynb:cell N`: the JSON would say little."""
        return ipynb.cell_diff(self.path, before, after)

    def _raw_positions(self) -> Callable[[int], Position]:
        starts = line_starts(self.notebook.text)

        def position(offset: int) -> Position:
            line = bisect.bisect_right(starts, offset)
            return Position(line, offset - starts[line - 1] + 1)

        return position


def _offset(text: str, position: Position) -> int:
    """The offset of a 1-based line and column in `text`, clamped to it."""
    starts = line_starts(text)
    if position.line > len(starts):
        return len(text)
    return min(starts[position.line - 1] + position.column - 1, len(text))
