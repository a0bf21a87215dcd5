"""The LSP door: `nnsight-lint server` speaks the Language Server Protocol on stdio.

Findings are published as diagnostics when a document is opened, changed or saved (full text sync)
and cleared when it is closed. Changes are coalesced: a version superseded before its turn comes is
never linted. The findings of a version are kept, so code actions and hover reuse them.

Code actions: one quick fix per finding that has a fix, a "disable for this line" action (`# noqa`),
and `source.fixAll.nnsight-lint`, which applies every safe fix and re-lints until stable, as
`nnsight-lint check --fix` does. Fix-all costs several lints, so it is offered without its edit and
computed only when the client resolves it (`codeAction/resolve`). Hover on a finding shows its
rule's explanation.

Positions are converted once, here: our 1-based lines and code-point columns become LSP's 0-based
lines and columns counted in the negotiated position encoding (UTF-16 code units unless the client
offers another). Lines break at \\r\\n, \\r and \\n, as in Python and in the LSP specification.

Needs pygls and lsprotocol (the `lsp` extra); only `nnsight-lint server` imports this module.
"""
from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from nnsight_lint import __version__, messages, rules
from nnsight_lint.api import lint_text
from nnsight_lint.diagnostics import Diagnostic, Edit, Position
from nnsight_lint.discovery import NOTEBOOK_SUFFIXES
from nnsight_lint.engine import _NOQA, DEFAULT_OPTIONS, LintOptions, lint_source
from nnsight_lint.text import LINE_BREAK, split_lines

SOURCE = "nnsight-lint"
FIX_ALL = "source.fixAll.nnsight-lint"
# How long a change waits before it is linted: a burst of keystrokes within it is linted once, at
# its last version. Short against the lint itself, so a single edit barely waits.
DEBOUNCE_SECONDS = 0.015


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
    server.nnl_state = _State()

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
        _publish_soon(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded
    def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams):
        _publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded
    def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams):
        ls.nnl_state.forget(params.text_document.uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(params.text_document.uri, []))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True),
    )
    @guarded
    def code_action(ls: LanguageServer, params: types.CodeActionParams):
        return _code_actions(ls, params)

    @server.feature(types.CODE_ACTION_RESOLVE)
    def code_action_resolve(ls: LanguageServer, action: types.CodeAction):
        try:
            return _resolve_fix_all(ls, action)
        except Exception as error:  # a bug of ours: the action comes back without an edit
            _log(ls, f"internal error in codeAction/resolve: {type(error).__name__}: {error}")
            return action

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded
    def hover(ls: LanguageServer, params: types.HoverParams):
        return _hover(ls, params)

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


def _settings_path(document) -> Optional[str]:
    """The file whose `pyproject.toml` applies: a saved file's path, a notebook cell's notebook;
    None (the defaults) for a buffer with no file, e.g. `untitled:`, whose pygls "path" would be
    a bare name resolved against the server's working directory."""
    parts = urlparse(document.uri)
    if parts.scheme in ("file", "vscode-notebook-cell") and parts.path.startswith("/"):
        return unquote(parts.path)
    return None


def _lint_name(document) -> str:
    """The name the engine lints the text under. An editor document holds Python text, also when
    it is a notebook cell (`vscode-notebook-cell:/nb.ipynb#...`): never lint it as notebook JSON."""
    path = _settings_path(document) or "untitled.py"
    return path + ".py" if path.endswith(NOTEBOOK_SUFFIXES) else path


def _options(ls: LanguageServer, document) -> LintOptions:
    """`[tool.nnsight-lint]` from the pyproject.toml nearest the document, read afresh for each
    version (so editing it takes effect at the next keystroke); the defaults for an unsaved buffer."""
    from nnsight_lint import config

    path = _settings_path(document)
    if path is None:
        return DEFAULT_OPTIONS
    try:
        return config.load_settings([path], None, rules.CODES).lint_options(path)
    except Exception as error:  # ConfigError, or a bug of ours: lint with the defaults, say why
        _log(ls, f"{document.uri}: settings not used: {error}")
        return DEFAULT_OPTIONS


@dataclass
class _Linted:
    version: Optional[int]
    text: str
    options: LintOptions
    findings: List[Diagnostic]


class _State:
    """Per document: the findings of the last version linted, and whether a lint is queued."""

    def __init__(self) -> None:
        self.linted: Dict[str, _Linted] = {}
        self.published: Dict[str, Optional[int]] = {}
        self.queued: set = set()

    def forget(self, uri: str) -> None:
        self.linted.pop(uri, None)
        self.published.pop(uri, None)
        self.queued.discard(uri)


def _linted(ls: LanguageServer, document) -> _Linted:
    """The findings of the document's current version, linted at most once per version."""
    known = ls.nnl_state.linted.get(document.uri)
    if known is not None and known.version == document.version and known.text == document.source:
        return known
    options = _options(ls, document)
    result = lint_text(document.source, _lint_name(document), options)
    if result.error:
        _log(ls, f"{document.uri}: {result.error}")
    known = _Linted(document.version, document.source, options, result.diagnostics)
    ls.nnl_state.linted[document.uri] = known
    return known


def _publish(ls: LanguageServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    if not _is_python(document):
        return
    lines, encoding = split_lines(document.source), _encoding(ls)
    found = [to_lsp_diagnostic(d, lines, encoding) for d in _linted(ls, document).findings]
    ls.nnl_state.published[uri] = document.version
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, found, version=document.version))


def _publish_soon(ls: LanguageServer, uri: str) -> None:
    """Lint after DEBOUNCE_SECONDS, at whatever version the document has then: changes that
    arrive meanwhile join this lint instead of queueing their own."""
    state = ls.nnl_state
    if uri in state.queued:
        return
    state.queued.add(uri)

    def run() -> None:
        if uri not in state.queued:  # closed meanwhile
            return
        state.queued.discard(uri)
        try:
            if ls.workspace.text_documents.get(uri) is not None:
                _publish(ls, uri)
        except Exception as error:
            _log(ls, f"internal error while linting {uri}: {type(error).__name__}: {error}")

    try:
        asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, run)
    except RuntimeError:  # no event loop (a synchronous transport): lint now
        run()


def _code_actions(ls: LanguageServer, params: types.CodeActionParams) -> Optional[List[types.CodeAction]]:
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    if not _is_python(document):
        return None
    text, encoding = document.source, _encoding(ls)
    linted = _linted(ls, document)
    lines = split_lines(text)
    actions = []
    if _wanted(types.CodeActionKind.QuickFix, params.context.only):
        for finding in linted.findings:
            diagnostic = to_lsp_diagnostic(finding, lines, encoding)
            if not _touches(diagnostic.range, params.range):
                continue
            if finding.fix is not None:
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
            noqa = noqa_edit(lines, finding, encoding)
            if noqa is not None:
                actions.append(
                    types.CodeAction(
                        title=f"nnsight-lint: disable {finding.code} for this line",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        edit=types.WorkspaceEdit(changes={uri: [noqa]}),
                    )
                )
    if _wanted(FIX_ALL, params.context.only) and any(f.fix and f.fix.safe for f in linted.findings):
        action = types.CodeAction(
            title="nnsight-lint: fix all safe problems", kind=FIX_ALL, data={"uri": uri, "version": document.version}
        )
        if not _client_resolves_edits(ls):  # it would never ask: the edit must come now
            action = _resolve_fix_all(ls, action)
        if action is not None and (action.edit is not None or _client_resolves_edits(ls)):
            actions.append(action)
    return actions


def _client_resolves_edits(ls: LanguageServer) -> bool:
    try:
        support = ls.client_capabilities.text_document.code_action.resolve_support
    except AttributeError:
        return False
    return support is not None and "edit" in (support.properties or [])


def _resolve_fix_all(ls: LanguageServer, action: types.CodeAction) -> Optional[types.CodeAction]:
    """Fill in fix-all's edit, for the document as it is now (an edit for an older version would
    land on the wrong text). No edit when nothing changes or the fixes cannot be applied."""
    data = action.data or {}
    uri = data.get("uri") if isinstance(data, dict) else None
    if action.kind != FIX_ALL or uri is None or ls.workspace.text_documents.get(uri) is None:
        return action
    document = ls.workspace.get_text_document(uri)
    text = document.source
    fixed = _fix_all(ls, document, _linted(ls, document).options)
    if fixed is not None and fixed != text:
        action.edit = types.WorkspaceEdit(changes={uri: [replace_changed_lines(text, fixed, _encoding(ls))]})
    return action


def noqa_edit(lines: Sequence[str], finding: Diagnostic, encoding: str) -> Optional[types.TextEdit]:
    """Append `# noqa: CODE` to the finding's line, or add CODE to the `# noqa: ...` already there.
    None where a comment cannot go: a line continued with a backslash, or past the end."""
    if finding.code == "NNL000" or not 1 <= finding.start.line <= len(lines):
        return None
    number = finding.start.line - 1
    line = lines[number]
    body = line.rstrip()
    if body.endswith("\\"):
        return None
    match = _NOQA.search(body)
    if match is not None and match.group("codes") is None:
        return None  # a bare `# noqa` silences everything already
    if match is not None:
        at, insert = match.end("codes"), f", {finding.code}"
    else:
        at, insert = len(body), f"  # noqa: {finding.code}"
    position = types.Position(number, units(line[:at], encoding))
    return types.TextEdit(types.Range(position, position), insert)


def _hover(ls: LanguageServer, params: types.HoverParams) -> Optional[types.Hover]:
    """The explanation of the rule of each finding under the cursor."""
    document = ls.workspace.get_text_document(params.text_document.uri)
    if not _is_python(document):
        return None
    lines, encoding = split_lines(document.source), _encoding(ls)
    here = types.Range(params.position, params.position)
    parts, ranges = [], []
    for finding in _linted(ls, document).findings:
        span = to_lsp_range(lines, finding.start, finding.end, encoding)
        if _touches(span, here) and finding.code in rules.CODES:
            parts.append(f"**{finding.code}**: {finding.message}\n\n{rules.explanation(finding.code)}")
            ranges.append(span)
    if not parts:
        return None
    contents = types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n---\n\n".join(parts))
    return types.Hover(contents=contents, range=ranges[0])


def _wanted(kind: str, only: Optional[Sequence[str]]) -> bool:
    """LSP kinds are hierarchical: asking for `source.fixAll` also asks for `source.fixAll.x`."""
    return only is None or any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


def _fix_title(finding: Diagnostic) -> str:
    rule = rules.RULES.get(finding.code)
    name = f" ({rule.NAME})" if rule is not None else ""
    return f"nnsight-lint: fix {finding.code}{name}" + ("" if finding.fix.safe else " [unsafe]")


def _fix_all(ls: LanguageServer, document, options: LintOptions) -> Optional[str]:
    from nnsight_lint.fixing import FixError, fix_text

    from nnsight_lint.engine import parsed_part

    path = _lint_name(document)
    try:
        # A syntax error outside the code the fixes touch (a helper being typed) does not stop
        # fix-all: each pass must only keep that code parsing, adding no syntax error.
        lint = lambda text: lint_source(text, path, options)  # noqa: E731
        return fix_text(document.source, lint, checked_part=lambda text: parsed_part(text, options)).text
    except FixError as error:
        _log(ls, f"{document.uri}: {error}; no fix-all offered")
    except Exception as error:
        _log(ls, f"{document.uri}: internal error while fixing: {type(error).__name__}: {error}")
    return None


def _log(ls: LanguageServer, message: str) -> None:
    ls.window_log_message(types.LogMessageParams(types.MessageType.Error, f"nnsight-lint: {message}"))
