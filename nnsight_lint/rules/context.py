"""What a rule gets besides the model: positions of nodes, and a way to make diagnostics."""
from __future__ import annotations

import re
from typing import Collection, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple, Union

import libcst as cst

from nnsight_lint.analysis.demos import Demos
from nnsight_lint.analysis.deliberate import comment_says_it_fails, percent_demo_lines
from nnsight_lint.diagnostics import Diagnostic, Fix, Position
from nnsight_lint.engine.positions import Generated, Positions
from nnsight_lint.engine.text import indent_unit, split_lines
from nnsight_lint.knowledge.versions import NEWEST

_DEMO_WORDS = re.compile(r"\btry\b|[rR]aises")


class FileLines:
    """A file's lines, and the lines of its `# %%` cells said to fail, worked out once: the pieces of
    a huge file (`slicing.pieces`) share one, where each piece's context splitting the whole file
    again costs pieces x file size (64 x 16 MB)."""

    __slots__ = ("lines", "_percent_demos")

    def __init__(self, text: str) -> None:
        self.lines: List[str] = split_lines(text)
        self._percent_demos: Optional[FrozenSet[int]] = None

    def percent_demos(self) -> FrozenSet[int]:
        if self._percent_demos is None:
            self._percent_demos = percent_demo_lines(self.lines)
        return self._percent_demos


class RuleContext:
    def __init__(
        self,
        path: str,
        module: cst.Module,
        text: str,
        target_version: Tuple[int, int] = NEWEST,
        report_deliberate_errors: bool = False,
        positions_cache: Optional[Dict[int, Generated]] = None,
        file_lines: Optional[FileLines] = None,
    ) -> None:
        """`text` is the module's source; `target_version` the nnsight the code is written for
        (messages may depend on it); `positions_cache` what `Positions` generated for earlier
        versions of the same document; `file_lines` those of `text`, if already split."""
        self.path = path
        self.module = module
        self._file_lines = file_lines if file_lines is not None else FileLines(text)
        self.lines: List[str] = self._file_lines.lines
        self._text = text
        self.target_version = target_version
        self.report_deliberate_errors = report_deliberate_errors  # then nothing counts as a demo
        self._positions_cache = positions_cache
        self.tops: Collection[cst.CSTNode] = ()  # the module-level statements findings are likely in
        # When the module is a piece of the file (`slicing.pieces`): its own text, and the file's
        # line for each of its lines. `text` and `lines` stay the file's.
        self.module_text: Optional[str] = None
        self.module_lines: Optional[Sequence[int]] = None
        # Each of the module's top-level statements' lines in its text, when known (`Sliced.statements`).
        self.statement_lines: Optional[Sequence[Tuple[int, int]]] = None
        self._positions: Optional[Positions] = None
        self._demos: Union[None, bool, Demos] = None  # False: the text holds no such code
        # What the rules that know the model read (`LintOptions.models`, `.transformers_version`,
        # `.live_schemas`).
        self.models: Mapping[str, str] = {}
        self.transformers_version: Optional[str] = None
        self.live_schemas = False
        # `schemas.known_model`'s answers in this lint, by what it asked (`schemas.py`).
        self.known_models: Dict[tuple, tuple] = {}
        # In a notebook: the lines a cell magic (`%%time`) compiles under a name of its own, with
        # the magic's name (`sources/notebook.sourceless_lines`); {} for a plain file.
        self.cell_magics: Mapping[int, str] = {}
        # A document's versions (the language server): what analyses keep per top-level statement
        # for the next version, by analysis (`incremental.Document.memo`); None for one text.
        self.document_memo: Optional[Dict[str, dict]] = None
        self._indent: Optional[str] = None

    def deliberate(self, code: str, at: Union[cst.CSTNode, Position]) -> bool:
        """Is `at` code that shows the rule's error on purpose: a line whose comment says it fails
        (`# will throw an error`), a `# %%` cell whose markdown neighbour says so, a
        `pytest.raises(...)` block, or a `try:` body whose handler catches what the rule predicts
        (or Exception, or everything)?"""
        from nnsight_lint import rules

        if self.report_deliberate_errors:
            return False
        where = at if isinstance(at, Position) else self.span(at)[0]
        if comment_says_it_fails(self.line_text(where.line)):
            return True
        if where.line in self._file_lines.percent_demos():
            return True
        if self._demos is None:
            # Looking costs every node's position: only when the module's text can hold such code
            # at all (a piece's own text: its module is all `Demos` looks in).
            if not _DEMO_WORDS.search(self.module_text or self._text):
                self._demos = False
            else:
                self._demos = Demos(self.module, self.span)
        if self._demos is False:
            return False
        return self._demos.catches(where, getattr(rules.rule(code), "RAISES", ()))

    def hide(self, diagnostic: Diagnostic) -> None:
        """A finding a rule does not report because `deliberate` said so where its error surfaces:
        counted as hidden, as the engine counts the ones it drops."""
        from nnsight_lint.engine.lint import hidden_as_demos

        hidden_as_demos([diagnostic])

    def span(self, node: cst.CSTNode) -> Tuple[Position, Position]:
        """1-based line and column of a node's first character, and of the character after it."""
        return self._positions_of().span(node)

    def start(self, node: cst.CSTNode) -> Position:
        """`span(node)[0]`, cheaper for a compound statement (its header is enough)."""
        return self._positions_of().start(node)

    def _positions_of(self) -> Positions:
        if self._positions is None:  # computed on first use: most files report nothing
            self._positions = Positions(self.module, self.module_text or self._text, self.module_lines, self.tops,
                                        self._positions_cache, self.statement_lines)
        return self._positions

    @property
    def indent(self) -> str:
        """What the file adds to indent a block (a tab, two or four spaces)."""
        if self._indent is None:
            self._indent = indent_unit(self.lines, self.module.default_indent)
        return self._indent

    def line_text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def diagnostic(self, code: str, node: cst.CSTNode, message: str, fix: Optional[Fix] = None) -> Diagnostic:
        start, end = self.span(node)
        return Diagnostic(self.path, code, str(message), start, end, fix, detail=getattr(message, "detail", ""))



def measured_order(trace, context: RuleContext):
    """The measured forward order of the model `trace` runs on (`schemas.forward_times`), for
    `forward_order.compare`; None when the model is not known (the hand ranks decide)."""
    cache = context.__dict__.setdefault("_measured_orders", {})
    if id(trace) not in cache:
        from nnsight_lint.analysis.schemas import forward_times, known_model

        known = known_model(trace, context)
        cache[id(trace)] = forward_times(known) if known is not None else None
    return cache[id(trace)]
