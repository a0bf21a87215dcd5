"""Source text in, diagnostics out: parse once, build the analysis model, run the selected rules,
honour `# noqa`. Knows nothing about any particular rule."""
from __future__ import annotations

import functools
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from nnsight_lint import messages
from nnsight_lint.engine.depth import assess, run_deep, run_main_first
from nnsight_lint.engine.parser import parse_module
from nnsight_lint.diagnostics import Diagnostic, Position
from nnsight_lint.engine.slicing import GatedPattern, pieces, sliced
from nnsight_lint.knowledge.versions import NEWEST

_NOQA = re.compile(r"#\s*noqa(?![\w-])(?::\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*))?", re.IGNORECASE)


@dataclass(frozen=True)
class LintOptions:
    select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    trace_names: Tuple[str, ...] = ("trace",)
    target_version: Tuple[int, int] = NEWEST  # the nnsight the code is written for
    report_deliberate_errors: bool = False  # also inside `pytest.raises` / a `try` that catches it
    honour_noqa: bool = True  # the runtime hook explains an error even where `# noqa` hid its finding
    transformers_version: Optional[str] = None  # the transformers the code is written for ("4.57.1"); None: unknown
    models: Mapping[str, str] = field(default_factory=dict, hash=False)  # [tool.nnsight-lint.models]: name/id -> hub id or config.json
    live_schemas: bool = False  # measure an architecture the bundled table lacks (torch + transformers installed)


DEFAULT_OPTIONS = LintOptions()


class Screen(NamedTuple):
    """What the raw-text pre-filter reads of a file's options (a `LintOptions` serves as well):
    known from the settings before the file's target versions are decided."""
    select: Tuple[str, ...]
    trace_names: Tuple[str, ...]


# Top-level definitions kept for rules although no trace uses them: a module's `forward` tells
# the order of the submodules it calls (NNL202); a save in a function called outside any trace
# (NNL105).
# A class whose `trace` is a context manager of the file's own (a plain `@contextmanager`, or a
# class with `__enter__`) is no nnsight model (NNL001's look-alikes). A definition that builds an
# nnsight model says which model a trace runs on (`analysis/models.py`).
# A function that declares a `global` may rebind a saved name when called after the trace (NNL301).
# nnsight's API used inside a definition (an import, `nnsight.list()`) is a finding wherever the
# definition is called (NNL301, NNL302); so is a member of a model the file builds at top level
# (`model._model` in a helper: `_NNSIGHT_MODEL` finds the names whose uses keep a definition: bound
# to an nnsight constructor, or traced by a top-level `with`).
_KEPT_DEFINITIONS = GatedPattern(
    re.compile(r"^\s+def\s+forward\s*\(|\.save\(\s*\)|\bnnsight\.save\(|@(?:\w+\.)?contextmanager\s+def\s+trace\s*\("
               r"|^\s+def\s+__enter__\s*\(|\b(?:LanguageModel|TransformersModel|NNsight|VLLM)\(|^\s+global\s"
               r"|^\s+(?:from|import)\s+nnsight\b|\bnnsight\.\w+\(",
               re.MULTILINE),
    # what each alternative above holds
    ("forward", ".save(", "nnsight", "contextmanager", "__enter__", "LanguageModel", "TransformersModel", "NNsight",
     "VLLM", "global"),
)
_NNSIGHT_MODEL = re.compile(r"([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*(?:[\w.]+\.)?(?:LanguageModel|TransformersModel|NNsight|VLLM)\("
                            r"|with\s+([A-Za-z_]\w*)\.(?:trace|generate)\(")


def could_have_findings(source: Union[str, bytes], options: Union[LintOptions, Screen] = DEFAULT_OPTIONS) -> bool:
    """Raw-text pre-filter: every finding needs nnsight named in the file or a `with ....trace(` /
    `with ....generate(` opener (NNL001 alone: a trace opener and a backward-like call)."""
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogatepass")
    # Cheapest test first: most files name no trace at all.
    if options.select == ("NNL001",):
        if not any(name.encode() in source for name in options.trace_names):
            return False
        if b"backward" not in source and b"autograd" not in source:
            return False
    elif b"nnsight" in source:
        return True
    elif b"generate" not in source and not any(name.encode() in source for name in options.trace_names):
        return False
    return _trace_pattern(tuple(options.trace_names)).search(source) is not None


@functools.lru_cache(maxsize=16)
def _trace_pattern_text(trace_names: Tuple[str, ...]) -> "TraceOpener":
    return TraceOpener(trace_names, str)


@functools.lru_cache(maxsize=16)
def _trace_pattern(trace_names: Tuple[str, ...]) -> "TraceOpener":
    return TraceOpener(trace_names, bytes)


class TraceOpener:
    """Finds a `with` statement that opens a trace: `with` up to the `:` that ends its items (so
    parenthesised multi-line items count) and a `.trace(` / `.generate(` call. The `with` starts its
    line, in a file (after a BOM on the first) or in a notebook's JSON (after an escaped `\\n` or a
    string's opening quote), so prose ("... with `model.generate()`") opens nothing. The calls are
    looked for first (rare), then a `with` before each (common): fast on large trees.
    Works on `str` or `bytes`, as `kind` says."""

    _REACH = 400  # how far before the call its `with` may stand

    def __init__(self, trace_names: Tuple[str, ...], kind: type) -> None:
        def text(value: str):
            return value if kind is str else value.encode("utf-8")

        # `.name(`, blanks allowed around the name: one regex scan costs what one `in` test does
        # (a `find` per name and a step per occurrence of "generate" cost three times that).
        names = "|".join(re.escape(name) for name in sorted({*trace_names, "generate"}, key=len, reverse=True))
        self._call = re.compile(text(rf"\.[ \t\r\n]*(?:{names})[ \t\r\n]*\("))
        self._with = re.compile(text(r"with\b"))
        self._bom, self._ends, self._escaped = text("\ufeff"), text("\r\n\""), text("\\n")
        self._blanks, self._colon, self._async = text(" \t\f"), text(":"), text("async")

    def search(self, text):
        for call in self._call.finditer(text):
            dot = call.start()
            lo = max(0, dot - self._REACH)
            opener = self._with.search(text, text.rfind(self._colon, lo, dot) + 1 or lo, dot)
            while opener is not None:
                if self._starts_line(text, opener.start()):
                    return opener
                opener = self._with.search(text, opener.start() + 4, dot)
        return None

    def _starts_line(self, text, at: int) -> bool:
        head = text[max(0, at - 200) : at].rstrip(self._blanks)
        if head.endswith(self._async):
            head = head[:-5].rstrip(self._blanks)
        if at <= 200 and head in (text[:0], self._bom):
            return True
        return bool(head) and (head[-1:] in self._ends or head.endswith(self._escaped))


def lint_source(
    source: Union[str, bytes], path: str = "<stdin>", options: LintOptions = DEFAULT_OPTIONS, document=None
) -> List[Diagnostic]:
    """All findings for one file's source (bytes keep their declared encoding and BOM).
    `document`: an `incremental.Document` that linted an earlier version of this source."""
    from nnsight_lint import rules

    if not could_have_findings(source, options):
        return []  # never parsed: its syntax is other tools' business
    codes = rules.selected(options.select, options.ignore, options.target_version)
    text = _decoded(source)
    opener = _trace_pattern_text(tuple(options.trace_names))
    parts = sliced_text(text, options, document) if text is not None else None
    if parts is not None:
        cut = pieces(parts.text, opener, statements=parts.statements)
    else:
        cut = pieces(text, opener) if text is not None else None
    if cut is not None:
        found = _lint_pieces(cut, path, codes, options, text)
        if found is not None:
            blanked_error = error_in_blanked(parts.blanked, path) if parts is not None and parts.blanked else None
            if blanked_error is not None and "NNL000" in codes:
                found = sorted([blanked_error, *found], key=Diagnostic.sort_key)
            return found
    # As text once decoded: libcst's own decoding misses a `# coding:` line ended by a lone CR, as
    # tokenize does.
    module_or_error, blanked = parse_sliced(parts, source if text is None else text, path, document)
    check_blanked = error_in_blanked if document is None else document.error_in_blanked
    blanked_error = check_blanked(blanked, path) if blanked else None  # the file's syntax, all of it
    if isinstance(module_or_error, Diagnostic):
        return [module_or_error] if "NNL000" in codes else []
    module = module_or_error
    statements = parts.statements if blanked is not None else None  # the tree is of `parts.text`
    if document is None:
        found = check_module(module, path, codes, options, module.code if text is None else text, statements=statements)
    else:
        found = document.check(module, (path, tuple(codes), options),
                               lambda: check_module(module, path, codes, options, text, positions_cache=document.positions,
                                                    document_memo=document.memo, statements=statements))
    if blanked_error is not None and "NNL000" in codes:
        found = sorted([blanked_error, *found], key=Diagnostic.sort_key)
    return found


def sliced_text(text: str, options: LintOptions = DEFAULT_OPTIONS, document=None):
    """How `text` is sliced for the rules (`slicing.sliced`): a `slicing.Sliced` (the text libcst
    is given, the definitions blanked out of it at their own lines, the kept statements' lines),
    or None when the statement scanner gives up. `document`: an
    `incremental.Document` that sliced an earlier version (its statements are scanned again only
    around the edit)."""
    starts, searched = (None, None) if document is None else (document.statement_starts, document.searched)
    return sliced(text, _trace_pattern_text(tuple(options.trace_names)), _KEPT_DEFINITIONS, starts, _NNSIGHT_MODEL,
                  searched)


def parse_sliced(parts, source: Union[str, bytes], path: str, document=None):
    """(the tree the rules walk, what was blanked out of it): the tree of `parts`' kept text
    (`sliced_text`: a `Sliced` of `source`, or None) with its blanked text, whose syntax no parse
    has checked; else, when the kept text does not parse, the whole `source`'s (so its error is
    reported as it is), or the NNL000 saying why it does not parse, with None."""
    parse_text = parse if document is None else document.parse
    if parts is not None:
        module_or_error = parse_text(parts.text, path)
        if not isinstance(module_or_error, Diagnostic):
            return module_or_error, parts.blanked
        if not parts.blanked:
            return module_or_error, None  # that was the whole text
    return parse_text(source, path), None


def _lint_pieces(cut, path: str, codes: Sequence[str], options: LintOptions, text: str) -> Optional[List[Diagnostic]]:
    """A huge file, piece by piece (`slicing.pieces`): one piece's tree at a time, in worker
    processes where the caller welcomes them (`parallel`). None when a piece does not parse: the
    whole file is then parsed, so its error is reported as it is."""
    from contextlib import closing

    from nnsight_lint.engine.collection import between_pieces
    from nnsight_lint.engine.parallel import mapped
    from nnsight_lint.rules.context import FileLines

    file_lines = FileLines(text)

    def lint_piece(piece) -> Optional[List[Diagnostic]]:
        module = parse(piece[0], path)
        if isinstance(module, Diagnostic):
            return None
        found = check_module(module, path, codes, options, text, piece, file_lines=file_lines)
        del module  # before the collection: this piece's tree is garbage now, not to be scanned
        between_pieces()
        return found

    found = {}
    with closing(mapped(lint_piece, cut)) as results:
        for diagnostics in results:
            if diagnostics is None:
                return None
            for diagnostic in diagnostics:
                # A statement every piece holds reports once.
                found.setdefault((diagnostic.code, diagnostic.start, diagnostic.end, diagnostic.message), diagnostic)
    return sorted(found.values(), key=Diagnostic.sort_key)


def error_in_blanked(blanked: str, path: str) -> Optional[Diagnostic]:
    """NNL000 for a syntax error in the definitions slicing left out (`blanked`, at their own
    lines), else None (`syntax_error`)."""
    return syntax_error(blanked, path)


def syntax_error(source: str, path: str) -> Optional[Diagnostic]:
    """NNL000 for a syntax error in `source` that no tree is needed of, else None. CPython's
    compiler checks it (fast); only when it objects does libcst decide (it knows newer syntax, and
    code CPython only rejects when compiling)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the file's own SyntaxWarnings are not ours to print
            compile(source, path, "exec", dont_inherit=True)
        return None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    return parse_error(source, path)


def parsed_part(text: str, options: LintOptions = DEFAULT_OPTIONS) -> str:
    """The text libcst is given for `text`: the slicing's relevant part, or all of it."""
    parts = sliced_text(text, options)
    return text if parts is None else parts.text


def _decoded(source: Union[str, bytes]) -> Optional[str]:
    if isinstance(source, str):
        return source
    from nnsight_lint.engine.text import decode

    try:
        return decode(source)[0]
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None  # the parser reports it


def parse(source: Union[str, bytes], path: str):
    """A libcst Module, or the NNL000 diagnostic saying why there is none."""
    import libcst as cst

    refused, suspicious = assess(source)  # here, with the caller's recursion limit: CPython judges by it
    if refused is not None:
        line, column, detail = refused
        return Diagnostic(path, "NNL000", messages.nnl000_syntax(detail), Position(line, column),
                          Position(line, column))
    try:
        return (run_deep if suspicious else run_main_first)(parse_module, source)
    except cst.ParserSyntaxError as error:
        line, column, detail = _syntax_error_location(source, error)
    except (UnicodeDecodeError, LookupError, SyntaxError, ValueError) as error:
        line, column, detail = 1, 1, str(error).splitlines()[0] if str(error) else type(error).__name__
    start = Position(max(line, 1), max(column, 1))
    return Diagnostic(path, "NNL000", messages.nnl000_syntax(detail), start, start)


def parse_error(source: Union[str, bytes], path: str) -> Optional[Diagnostic]:
    """The NNL000 diagnostic `parse` gives for `source`, or None when it parses."""
    parsed = parse(source, path)
    return parsed if isinstance(parsed, Diagnostic) else None


_LIBCST_AT = re.compile(r"error at (\d+):(\d+): (.*)")


def _syntax_error_location(source, error) -> Tuple[int, int, str]:
    """libcst's own positions are coarse; CPython's compiler names the exact place when it agrees."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the file's own SyntaxWarnings are not ours to print
            ast.parse(source)
    except SyntaxError as python_error:
        if python_error.lineno:
            return python_error.lineno, python_error.offset or 1, python_error.msg
    except (ValueError, UnicodeDecodeError):
        pass
    text = str(error.message).strip().splitlines()[0]
    match = _LIBCST_AT.search(text)
    if match:
        return int(match.group(1)), int(match.group(2)) + 1, match.group(3)
    return error.raw_line, error.raw_column + 1, text


def check_module(
    module,
    path: str,
    codes: Sequence[str],
    options: LintOptions = DEFAULT_OPTIONS,
    text: Optional[str] = None,
    piece: Optional[Tuple[str, Sequence[int]]] = None,
    positions_cache: Optional[dict] = None,
    cell_magics: Optional[Mapping[int, str]] = None,
    document_memo: Optional[dict] = None,
    file_lines=None,
    statements: Optional[Sequence[Tuple[int, int]]] = None,
) -> List[Diagnostic]:
    """Run the rules on a parsed module; `text` is its source (regenerated from the tree if None).
    With `piece` (its text, and the file's line for each of its lines) the module is a piece of
    the file whose text is `text`, and findings are placed in the file. `positions_cache`: see
    `positions.Positions`. `cell_magics`: the lines a notebook's cell magic runs under a name of
    its own, with the magic's name (`notebook.sourceless_lines`). `document_memo`: what the
    analyses kept for an earlier version of the same document (`incremental.Document.memo`).
    `file_lines`: `text`'s lines (`context.FileLines`), split once for all the pieces of a file.
    `statements`: the lines of each of the module's top-level statements in `text`, when the
    module is the tree of a slicing of it (`slicing.Sliced.statements`; a piece has its own)."""
    return run_main_first(_check_module, module, path, codes, options, text, piece, positions_cache, cell_magics,
                          document_memo, file_lines, statements)


def _check_module(module, path: str, codes: Sequence[str], options: LintOptions, text: Optional[str],
                  piece: Optional[Tuple[str, Sequence[int]]] = None,
                  positions_cache: Optional[dict] = None,
                  cell_magics: Optional[Mapping[int, str]] = None,
                  document_memo: Optional[dict] = None, file_lines=None,
                  statements: Optional[Sequence[Tuple[int, int]]] = None) -> List[Diagnostic]:
    from nnsight_lint import rules
    from nnsight_lint.analysis import build_file_model
    from nnsight_lint.rules.context import RuleContext

    file_model = build_file_model(module, options.trace_names, path)
    if not file_model.traces and not file_model.events:
        return []
    context = RuleContext(path, module, module.code if text is None else text, options.target_version,
                          options.report_deliberate_errors, positions_cache, file_lines)
    context.models, context.transformers_version = options.models, options.transformers_version
    context.live_schemas = options.live_schemas
    context.cell_magics = cell_magics or {}
    context.document_memo = document_memo
    # Findings are mostly inside traces: positions look in their statements first.
    context.tops = [trace.top for trace in file_model.traces if trace.top is not None]
    context.statement_lines = statements
    if piece is not None:
        context.module_text, context.module_lines = piece
        context.statement_lines = getattr(piece, "statements", None)  # a `slicing.Piece`
    try:
        found = [d for code in codes if code != "NNL000" for d in rules.RULES[code].check(file_model, context)]
    finally:
        file_model.release()
    shown = [d for d in found if not _shown_on_purpose(d, context)]
    if len(shown) < len(found):
        hidden_as_demos(d for d in found if d not in shown)
    found = shown
    if options.honour_noqa:
        found = without_noqa(found, context.lines)
    return sorted(found, key=Diagnostic.sort_key)


def _shown_on_purpose(diagnostic: Diagnostic, context) -> bool:
    """Is the finding in code that shows its error on purpose? A rule whose error is raised elsewhere
    than where it reports (NNL101: at the read after the trace, not at the binding) asks
    `context.deliberate` there itself; here only a comment on the reported line counts for it."""
    from nnsight_lint import rules
    from nnsight_lint.analysis.deliberate import comment_says_it_fails

    if getattr(rules.RULES[diagnostic.code], "DELIBERATE_WHERE_RAISED", False):
        return not context.report_deliberate_errors and comment_says_it_fails(context.line_text(diagnostic.line))
    return context.deliberate(diagnostic.code, diagnostic.start)


# Findings not reported because the code shows their error on purpose are counted, so that a run
# can say how many it did not show ("2 findings in deliberate error demos not shown"): every
# collector that `counting_hidden` opened hears of them.
_COLLECTORS: List[set] = []


@contextmanager
def counting_hidden():
    """Collects what is hidden as a deliberate demo while the block runs: a set of findings' keys
    (a finding two slices of a file both hold counts once)."""
    collected: set = set()
    _COLLECTORS.append(collected)
    try:
        yield collected
    finally:
        _COLLECTORS.remove(collected)


def hidden_as_demos(diagnostics: Iterable[Diagnostic]) -> None:
    if _COLLECTORS:
        hear_hidden({(d.code, d.start, d.end, d.cell, d.message) for d in diagnostics})


def hear_hidden(keys: Iterable[tuple]) -> None:
    """Tell the open collectors of findings hidden elsewhere (a worker process), by their keys."""
    for collected in _COLLECTORS:
        collected.update(keys)


def without_noqa(diagnostics: Iterable[Diagnostic], lines: Sequence[str]) -> List[Diagnostic]:
    kept = []
    for diagnostic in diagnostics:
        line = lines[diagnostic.line - 1] if diagnostic.line <= len(lines) else ""
        if not _suppressed(diagnostic.code, line):
            kept.append(diagnostic)
    return kept


def _suppressed(code: str, line: str) -> bool:
    match = _NOQA.search(line)
    if match is None:
        return False
    listed = match.group("codes")
    return listed is None or code.upper() in {c.strip().upper() for c in listed.split(",")}
