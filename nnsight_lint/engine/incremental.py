"""One document linted version after version (an editor's buffer).

A version is parsed by reusing the top-level statements of the last parse that the edit left
alone: only the statements around the changed text are parsed again and spliced into the last
tree, which gives the tree a whole parse gives (tests/test_incremental.py compares the two over
thousands of edits). The code `Positions` generates is kept per statement too, so an unchanged
trace costs no code generation either.

A statement's text runs from its leading blank and comment lines to the next statement's. The
statements parsed again are those the changed text touches and one on each side: an edit can move
a comment line from one statement to its neighbour (an indented comment after a function joins the
function). Everything else falls back to a whole parse: a piece that does not parse alone (its
error is reported as a whole parse reports it), one that may hold the first indented block without
holding one any more (that block decides the file's indentation), and one whose parse would not
splice exactly (other indentation or line breaks, comment lines left at its end, no statement,
text libcst does not give back).
"""
from __future__ import annotations

import bisect
from typing import Callable, Dict, List, Optional, Union

import libcst as cst
from libcst._nodes.internal import CodegenState

from nnsight_lint.diagnostics import Diagnostic
from nnsight_lint.engine.positions import Generated, cached
from nnsight_lint.engine.text import common_ends, line_starts

Parsed = Union[cst.Module, Diagnostic]


class Document:
    """What one document's last lint leaves for the next version: its parse, where its statements
    start, the positions generated, the syntax check of the blanked definitions, each notebook
    cell's own parse, and the findings of its tree."""

    def __init__(self) -> None:
        self.positions: Dict[int, Generated] = {}  # `Positions`' cache: generated statements by id
        # What an analysis keeps per top-level statement for the next version, by the analysis's
        # name (`api_uses`): `RuleContext.document_memo`.
        self.memo: Dict[str, dict] = {}
        self.searched: dict = {}  # what slicing found in each statement's text (`slicing.sliced`)
        self._text: Optional[str] = None
        self._module: Optional[cst.Module] = None
        self._starts: Optional[List[int]] = None  # where each statement's text starts; then the footer's
        self._blanked: Optional[tuple] = None  # (text, its error) of the last `error_in_blanked`
        self._checked: Optional[tuple] = None  # (module, how, findings) of the last `check`
        self._cells: Dict[str, Optional[Diagnostic]] = {}  # a notebook cell's text -> its syntax error
        self._scanned: Optional[tuple] = None  # (text, its line offsets, its statement start lines)

    def statement_starts(self, text: str, lines: List[str]) -> Optional[List[int]]:
        """`slicing`'s statement starts, scanned again only around the edit since the last version."""
        from nnsight_lint.engine.slicing import rescan_statement_starts, scan_statement_starts

        offsets = line_starts(text)
        found = rescan_statement_starts(self._scanned, text, lines, offsets) if self._scanned is not None else None
        if found is None:
            whole = scan_statement_starts(text, lines)
            found = None if whole is None else whole[0]
        self._scanned = None if found is None else (text, offsets, found)
        return found

    def cell_error(self, text: str, path: str) -> Optional[Diagnostic]:
        """The syntax error of one notebook cell alone (None: it has none; `lint.syntax_error`),
        checked again only when the cell changed."""
        from nnsight_lint.engine.lint import syntax_error

        if text not in self._cells:
            if len(self._cells) >= 1024:  # cells of versions long gone
                self._cells.clear()
            self._cells[text] = syntax_error(text, path)
        return self._cells[text]

    def check(self, module: cst.Module, how: tuple, check: Callable[[], List[Diagnostic]]) -> List[Diagnostic]:
        """`check()`: the rules' findings on `module`, checked as `how` says (path, options, ...).
        Again only for another tree: an edit the parse did not see (in a definition slicing
        blanked, which keeps every line where it was) changes no finding."""
        if self._checked is None or self._checked[0] is not module or self._checked[1] != how:
            self._checked = (module, how, check())
        return list(self._checked[2])

    def error_in_blanked(self, blanked: str, path: str) -> Optional[Diagnostic]:
        """`engine.error_in_blanked`, again only when the blanked definitions changed."""
        from nnsight_lint.engine.lint import error_in_blanked

        if self._blanked is None or self._blanked[0] != blanked:
            self._blanked = (blanked, error_in_blanked(blanked, path))
        return self._blanked[1]

    def parse(self, text: str, path: str) -> Parsed:
        """`engine.parse(text, path)`, reusing what the last version's parse can give."""
        from nnsight_lint.engine.lint import parse

        module = self._reparsed(text, path) if self._module is not None and isinstance(text, str) else None
        if module is None:
            module = parse(text, path)
            self._starts = None
        if isinstance(module, Diagnostic) or not isinstance(text, str):
            self._text = self._module = self._starts = None
            self.positions.clear()
            return module
        self._text, self._module = text, module
        kept = {id(statement) for statement in module.body}
        for key in [key for key in self.positions if key not in kept]:
            del self.positions[key]
        return module

    def _reparsed(self, text: str, path: str) -> Optional[cst.Module]:
        from nnsight_lint.engine.lint import parse

        old, module = self._text, self._module
        if text == old:
            return module
        body = module.body
        if self._starts is None:
            self._starts = _starts(module, self.positions, len(old))
        starts = self._starts
        if not starts:
            return None
        head, tail = common_ends(old, text)
        changed_end = len(old) - tail  # the old text changed in [head, changed_end)
        first = bisect.bisect_right(starts, head) - 1 - 1  # one statement before the change
        last = bisect.bisect_right(starts, max(changed_end - 1, head)) - 1 + 1  # one after
        at_start, first = first < 0, max(first, 0)
        to_end = last >= len(body)
        delta = len(text) - len(old)
        piece = text[0 if at_start else starts[first] : len(text) if to_end else starts[last + 1] + delta]
        parsed = parse(piece, path)
        if (
            isinstance(parsed, Diagnostic)
            or not parsed.body
            or parsed.default_indent != module.default_indent
            or parsed.default_newline != module.default_newline
            or (not to_end and (parsed.footer or not parsed.has_trailing_newline))
            # The file's indentation is its first indented block's: if that may be in the piece,
            # the piece must have one (to have detected the same).
            or not (_holds_a_block(body[:first]) or _holds_a_block(parsed.body))
        ):
            return None
        statements = list(parsed.body)
        if parsed.header and not at_start:  # a piece's leading lines are its first statement's, as in the file
            statements[0] = statements[0].with_changes(leading_lines=(*parsed.header, *statements[0].leading_lines))
        changes = {"body": (*body[:first], *statements, *([] if to_end else body[last + 1 :]))}
        if to_end:
            changes.update(footer=parsed.footer, has_trailing_newline=parsed.has_trailing_newline)
        if at_start:
            changes.update(header=parsed.header)
        spliced = module.with_changes(**changes)
        header = _code(spliced, parsed.header) if at_start else ""
        # Generated with positions recorded: the findings in these statements will want them.
        generated = [Generated(statement, spliced) for statement in statements]
        codes = [one.text for one in generated]
        footer = _code(spliced, parsed.footer) if to_end else ""
        if "".join([header, *codes, footer]) != piece:  # libcst dropped some of it: trust no splice
            return None
        self.positions.update((id(one.statement), one) for one in generated)
        offsets, at = [], (0 if at_start else starts[first]) + len(header)
        for code in codes:
            offsets.append(at)
            at += len(code)
        moved = [start + delta for start in starts[last + 1 :]] if not to_end else [at]
        self._starts = [*starts[:first], *offsets, *moved]
        return spliced


def _holds_a_block(body) -> bool:
    """Does a statement of `body` hold an indented block (the first one in a file decides its
    default indentation)?"""
    return any(isinstance(statement, cst.BaseCompoundStatement) and _holds_block(statement) for statement in body)


def _holds_block(statement: cst.CSTNode) -> bool:
    stack = [statement]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.IndentedBlock):
            return True
        for name in ("body", "orelse", "handlers", "finalbody", "cases"):  # the statement parts
            value = getattr(node, name, None)
            if isinstance(value, (list, tuple)):
                stack.extend(value)
            elif isinstance(value, cst.CSTNode):
                stack.append(value)
    return False


def _starts(module: cst.Module, generated: Dict[int, Generated], length: int) -> List[int]:
    """Where each top-level statement's text starts in the module's code, then where its footer
    does; statements `Positions` generated already are not generated again. [] when the code is
    not the text it was parsed from (`length` long): libcst drops a line holding only `\\`."""
    at = len(_code(module, module.header))
    starts = []
    for statement in module.body:
        starts.append(at)
        known = cached(generated, statement)
        at += len(known.text) if known is not None else len(module.code_for_node(statement))
    starts.append(at)
    return starts if at + len(_code(module, module.footer)) == length else []


def _code(module: cst.Module, lines) -> str:
    """The code of a module's header or footer lines."""
    state = CodegenState(default_indent=module.default_indent, default_newline=module.default_newline)
    for line in lines:
        line._codegen(state)
    return "".join(state.tokens)
