"""The LSP door: `nnsight-lint server` speaks the Language Server Protocol on stdio.

Findings are published as diagnostics when a document is opened, changed or saved (full text sync)
and cleared when it is closed. Code actions: one quick fix per finding that has a fix, and
`source.fixAll.nnsight-lint`, which applies every safe fix and re-lints until stable, as
`nnsight-lint check --fix` does.

Positions are converted once, here: our 1-based lines and code-point columns become LSP's 0-based
lines and columns counted in the negotiated position encoding (UTF-16 code units unless the client
offers another). Lines break at \\r\\n, \\r and \\n, as in Python and in the LSP specification.

Needs pygls and lsprotocol (the `lsp` extra); only `nnsight-lint server` imports this module.
"""
from __future__ import annotations

import functools
from typing import List, Optional, Sequence

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from nnsight_lint import __version__, messages, rules
from nnsight_lint.api import lint_text
from nnsight_lint.diagnostics import Diagnostic, Edit, Position
from nnsight_lint.engine import DEFAULT_OPTIONS, LintOptions, lint_source
from nnsight_lint.text import LINE_BREAK, split_lines

SOURCE = "nnsight-lint"
FIX_ALL = "source.fixAll.nnsight-lint"


# --- positions ---------------------------------------------------------------------------------


def units(text: str, encoding: str) -> int:
    """How many code units of `encoding` ("utf-8", "utf-16" or "utf-32") `text` takes."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_lsp_position(lines: Sequence[str], position: Position, encoding: str) -> types.Position:
    """A 1-based line and code-point column as a 0-based LSP position, clamped to the document."""
    line = min(max(position.line - 1, 0), len(lines) - 1)
    if position.line - 1 >= len(lines):
        return types.Position(line, units(lines[line], encoding))
    return types.Position(line, units(lines[line][: max(position.column - 1, 0)], encoding))


def to_lsp_range(lines: Sequence[str], start: Position, end: Position, encoding: str) -> types.Range:
    return types.Range(to_lsp_position(lines, start, encoding), to_lsp_position(lines, end, encoding))


def _touches(a: types.Range, b: types.Range) -> bool:
    key = lambda p: (p.line, p.character)  # noqa: E731
    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


# --- diagnostics and edits -----------------------------------------------------------------------


def to_lsp_diagnostic(diagnostic: Diagnostic, lines: Sequence[str], encoding: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=to_lsp_range(lines, diagnostic.start, diagnostic.end, encoding),
        message=diagnostic.message,
        severity=types.DiagnosticSeverity.Warning,
        code=diagnostic.code,
        code_description=types.CodeDescription(href=messages.DOCS_URL.format(code=diagnostic.code)),
        source=SOURCE,
    )


def to_text_edit(edit: Edit, lines: Sequence[str], encoding: str) -> types.TextEdit:
    return types.TextEdit(to_lsp_range(lines, edit.start, edit.end, encoding), edit.content)


def replace_changed_lines(before: str, after: str, encoding: str) -> types.TextEdit:
    """One edit turning `before` into `after` that replaces only the lines in between the common
    leading and trailing lines, so the editor keeps the cursor, folds and undo history elsewhere."""
    old, new = _pieces(before), _pieces(after)
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    start = types.Position(head, 0)
    if tail:
        end = types.Position(len(old) - tail, 0)
    else:  # the last line changed: it has no line break, so the range ends at its end
        end = types.Position(len(old) - 1, units(old[-1], encoding))
    return types.TextEdit(types.Range(start, end), "".join(new[head : len(new) - tail]))


def _pieces(text: str) -> List[str]:
    """The lines with their breaks; the last piece (maybe empty) has none."""
    pieces, start = [], 0
    for match in LINE_BREAK.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    pieces.append(text[start:])
    return pieces


# --- the server --------------------------------------------------------------------------------


def create_server() -> LanguageServer:
    server = LanguageServer(SOURCE, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
    server.shutdown_requested = False

    def guarded(handler):
        """A bug of ours is logged to the client, never allowed to take the server down."""

        @functools.wraps(handler)
        def run(ls: LanguageServer, params):
            try:
                return handler(ls, params)
            except Exception as error:
                _log(ls, f"internal error in {handler.__name__}: {type(error).__name__}: {error}")
                return None

        return run

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded
    def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams):
        _publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded
    def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams):
        _publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded
    def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams):
        _publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded
    def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams):
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(params.text_document.uri, []))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )
    @guarded
    def code_action(ls: LanguageServer, params: types.CodeActionParams):
        return _code_actions(ls, params)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: LanguageServer, *args):
        ls.shutdown_requested = True

    return server


def serve() -> int:
    """Run the server on stdin/stdout until the client says `exit` (0 after `shutdown`, else 1)."""
    server = create_server()
    server.start_io()
    return 0 if server.shutdown_requested else 1


def _encoding(ls: LanguageServer) -> str:
    return ls.workspace.position_encoding or types.PositionEncodingKind.Utf16


def _is_python(document) -> bool:
    return document.language_id in (None, "", "python")


def _options(ls: LanguageServer, document) -> LintOptions:
    """`[tool.nnsight-lint]` from the pyproject.toml nearest the document, read afresh each time
    (so editing it takes effect at the next keystroke); the defaults for an unsaved buffer."""
    from nnsight_lint import config

    if not document.path:
        return DEFAULT_OPTIONS
    try:
        return config.load_settings([document.path], None, rules.CODES).lint_options(document.path)
    except Exception as error:  # ConfigError, or a bug of ours: lint with the defaults, say why
        _log(ls, f"{document.uri}: settings not used: {error}")
        return DEFAULT_OPTIONS


def _lint(ls: LanguageServer, document, options: LintOptions) -> List[Diagnostic]:
    text, path = document.source, document.path or document.uri
    result = lint_text(text, path, options)
    if result.error:
        _log(ls, f"{document.uri}: {result.error}")
    return result.diagnostics


def _publish(ls: LanguageServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    if not _is_python(document):
        return
    lines, encoding = split_lines(document.source), _encoding(ls)
    found = [to_lsp_diagnostic(d, lines, encoding) for d in _lint(ls, document, _options(ls, document))]
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, found, version=document.version))


def _code_actions(ls: LanguageServer, params: types.CodeActionParams) -> Optional[List[types.CodeAction]]:
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    if not _is_python(document):
        return None
    text, encoding = document.source, _encoding(ls)
    options = _options(ls, document)
    lines, findings = split_lines(text), _lint(ls, document, options)
    actions = []
    if _wanted(types.CodeActionKind.QuickFix, params.context.only):
        for finding in findings:
            if finding.fix is None:
                continue
            diagnostic = to_lsp_diagnostic(finding, lines, encoding)
            if not _touches(diagnostic.range, params.range):
                continue
            edits = [to_text_edit(e, lines, encoding) for e in finding.fix.edits]
            actions.append(
                types.CodeAction(
                    title=_fix_title(finding),
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    is_preferred=finding.fix.safe,
                    edit=types.WorkspaceEdit(changes={uri: edits}),
                )
            )
    if _wanted(FIX_ALL, params.context.only) and any(f.fix and f.fix.safe for f in findings):
        fixed = _fix_all(ls, document, options)
        if fixed is not None and fixed != text:
            actions.append(
                types.CodeAction(
                    title="nnsight-lint: fix all safe problems",
                    kind=FIX_ALL,
                    edit=types.WorkspaceEdit(changes={uri: [replace_changed_lines(text, fixed, encoding)]}),
                )
            )
    return actions


def _wanted(kind: str, only: Optional[Sequence[str]]) -> bool:
    """LSP kinds are hierarchical: asking for `source.fixAll` also asks for `source.fixAll.x`."""
    return only is None or any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


def _fix_title(finding: Diagnostic) -> str:
    rule = rules.RULES.get(finding.code)
    name = f" ({rule.NAME})" if rule is not None else ""
    return f"nnsight-lint: fix {finding.code}{name}" + ("" if finding.fix.safe else " [unsafe]")


def _fix_all(ls: LanguageServer, document, options: LintOptions) -> Optional[str]:
    from nnsight_lint.fixing import FixError, fix_text

    path = document.path or document.uri
    try:
        return fix_text(document.source, lambda text: lint_source(text, path, options)).text
    except FixError as error:
        _log(ls, f"{document.uri}: {error}; no fix-all offered")
    except Exception as error:
        _log(ls, f"{document.uri}: internal error while fixing: {type(error).__name__}: {error}")
    return None


def _log(ls: LanguageServer, message: str) -> None:
    ls.window_log_message(types.LogMessageParams(types.MessageType.Error, f"nnsight-lint: {message}"))
