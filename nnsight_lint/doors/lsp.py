"""The LSP door: `nnsight-lint server` speaks the Language Server Protocol on stdio.

Findings are published as diagnostics when a document is opened, changed or saved (full text sync)
and cleared when it is closed. Notebooks are synced as notebook documents (`notebookDocument/*`):
their Python code cells are linted together, joined in order, as `nnsight-lint check` lints an
.ipynb, and each cell gets its findings at its own lines. A cell sent as a plain text document is
Python with IPython syntax, linted on its own (`source.for_editor`). Changes are coalesced: a version superseded before its turn comes is
never linted. The findings of a version are kept, so code actions and hover reuse them.

Code actions: one quick fix per finding that has a fix, a "disable for this line" action (`# noqa`),
and `source.fixAll.nnsight-lint`, which applies every safe fix and re-lints until stable, as
`nnsight-lint check --fix` does (for a notebook: across its cells, one edit per changed cell). Fix-all costs several lints, so it is offered without its edit and
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
import sys
import time
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Sequence, Tuple
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from nnsight_lint import __version__, messages, rules
from nnsight_lint.sources import source
from nnsight_lint.diagnostics import Diagnostic, Edit, Position
from nnsight_lint.sources.discovery import NOTEBOOK_SUFFIXES
from nnsight_lint.engine.lint import _NOQA, DEFAULT_OPTIONS, LintOptions
from nnsight_lint.engine.incremental import Document
from nnsight_lint.doors.readahead import ReadAhead
from nnsight_lint.engine.text import LINE_BREAK, common_ends, split_lines

SOURCE = "nnsight-lint"
FIX_ALL = "source.fixAll.nnsight-lint"
# A change is linted as soon as the server has handled everything the editor sent: a burst is
# linted once, at its last version. How long to keep waiting for the rest of a message that is
# still arriving, at most:
PATIENCE_SECONDS = 0.1
# A document larger than this (characters) is linted in a child process (`background`): the
# server answers meanwhile, and the parse never grows its memory. Until its findings come, it has
# no code actions and no hover.
LARGE_DOCUMENT = 1_000_000


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
    head, tail = common_ends(old, new)
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


NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[types.NotebookDocumentFilterWithCells(cells=[types.NotebookCellLanguage("python")], notebook="*")]
)


def create_server(given: Optional[ReadAhead] = None) -> LanguageServer:
    """The server; `given`: its input, when it is read ahead (then a change waits for no more than
    what the editor has already sent)."""
    server = LanguageServer(
        SOURCE, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full, notebook_document_sync=NOTEBOOK_SYNC
    )
    server.shutdown_requested = False
    server.nnl_state = _State()
    server.nnl_background = None  # the children linting large documents, once one is needed
    server.nnl_input = given
    handle = server.protocol.handle_message

    def handle_message(message):
        try:
            method, ident = getattr(message, "method", None), getattr(message, "id", None)
            if server.protocol._shutdown and ident is not None and method not in (None, types.EXIT):
                # The protocol: a request after `shutdown` is an InvalidRequest error, not silence.
                error = types.ResponseError(types.ErrorCodes.InvalidRequest, messages.LSP_AFTER_SHUTDOWN.format(method=method))
                return server.protocol._send_response(ident, error=error)
            return handle(message)
        finally:
            if given is not None:
                given.handled_all()

    server.protocol.handle_message = handle_message

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
        if ls.nnl_background is not None:
            ls.nnl_background.cancel(params.text_document.uri)
        ls.nnl_state.forget(params.text_document.uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(params.text_document.uri, []))

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    @guarded
    def notebook_did_open(ls: LanguageServer, params: types.DidOpenNotebookDocumentParams):
        _publish(ls, params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    @guarded
    def notebook_did_change(ls: LanguageServer, params: types.DidChangeNotebookDocumentParams):
        _publish_soon(ls, params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    @guarded
    def notebook_did_save(ls: LanguageServer, params: types.DidSaveNotebookDocumentParams):
        _publish(ls, params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    @guarded
    def notebook_did_close(ls: LanguageServer, params: types.DidCloseNotebookDocumentParams):
        uri = params.notebook_document.uri
        for cell in ls.nnl_state.forget(uri):
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(cell, []))

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
        if ls.nnl_background is not None:
            ls.nnl_background.stop()

    @server.feature(types.EXIT)
    def exit_(ls: LanguageServer, *args):
        if ls.nnl_background is not None:
            ls.nnl_background.stop()

    return server


def serve() -> int:
    """Run the server on stdin/stdout until the client says `exit` (0 after `shutdown`, else 1), its
    input ends, or it is interrupted (SIGINT, SIGTERM: 130 and 143, as a shell reports them)."""
    import os
    import signal

    def stop(number, frame):  # pygls would wait for its reader threads: end the process now
        try:
            if server.nnl_background is not None:
                server.nnl_background.stop()
            sys.stderr.write(f"nnsight-lint: server stopped by {signal.Signals(number).name}\n")
            sys.stderr.flush()
        finally:
            os._exit(128 + number)

    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, stop)
    given = ReadAhead(sys.stdin.buffer)
    server = create_server(given)
    server.start_io(stdin=given)
    return 0 if server.shutdown_requested else 1


def _encoding(ls: LanguageServer) -> str:
    return ls.workspace.position_encoding or types.PositionEncodingKind.Utf16


def _is_python(document) -> bool:
    return document.language_id in (None, "", "python")


def _settings_path(uri: str) -> Optional[str]:
    """The file whose `pyproject.toml` applies: a saved file's path, a notebook's or its cell's
    notebook; None (the defaults) for a buffer with no file, e.g. `untitled:`, whose pygls "path"
    would be a bare name resolved against the server's working directory."""
    parts = urlparse(uri)
    if parts.scheme in ("file", "vscode-notebook-cell") and parts.path.startswith("/"):
        return unquote(parts.path)
    return None


def _options(ls: LanguageServer, uri: str) -> LintOptions:
    """The document's settings as `check` resolves them (`config.Resolver`), read afresh for each
    version (so editing a pyproject.toml or a requirement takes effect at the next keystroke); the
    defaults for an unsaved buffer."""
    from nnsight_lint.sources import config

    path = _settings_path(uri)
    if path is None:
        return DEFAULT_OPTIONS
    try:
        return config.Resolver(None, rules.CODES).for_path(path).lint_options(path)
    except Exception as error:  # ConfigError, or a bug of ours: lint with the defaults, say why
        _log(ls, f"{uri}: settings not used: {error}")
        return DEFAULT_OPTIONS


# --- what is linted: a text document on its own, or the code cells of a notebook ---------------


@dataclass
class _Linted:
    texts: Tuple[str, ...]  # the document's text, or each code cell's
    versions: Tuple[Optional[int], ...]
    options: LintOptions
    findings: List[Diagnostic]  # a notebook's name their cell (1-based among `cells`)


@dataclass
class _Unit:
    """What one lint covers: a text document, or a notebook whose Python code cells are joined in
    order (names from earlier cells are visible, as when it runs)."""

    uri: str  # the text document's or the notebook's
    cells: List  # the text documents linted: the document itself, or the code cells in order
    notebook: bool

    def source(self, texts: Sequence[str], options: LintOptions) -> source.Source:
        path = _settings_path(self.uri) or "untitled.py"
        if self.notebook:
            return source.Cells(path, texts)
        return source.for_editor(texts[0], path, cell=_is_cell(self.uri))

    def findings_of(self, linted: _Linted, uri: str) -> List[Diagnostic]:
        """The findings in the text document `uri`, at its own lines."""
        if not self.notebook:
            return linted.findings
        number = next((n for n, cell in enumerate(self.cells, 1) if cell.uri == uri), None)
        return [replace(d, cell=None) for d in linted.findings if d.cell == number]


def _is_cell(uri: str) -> bool:
    """A notebook cell sent as a text document holds Python with IPython syntax, never JSON."""
    return uri.startswith("vscode-notebook-cell:") or (_settings_path(uri) or "").endswith(NOTEBOOK_SUFFIXES)


def _unit(ls: LanguageServer, uri: str) -> Optional[_Unit]:
    """The unit that holds `uri` (a text document, a notebook cell or a notebook); None for a
    document that is not Python."""
    notebook = ls.workspace.get_notebook_document(notebook_uri=uri) or ls.workspace.get_notebook_document(cell_uri=uri)
    if notebook is not None:
        documents = [ls.workspace.get_text_document(c.document) for c in notebook.cells if c.kind == types.NotebookCellKind.Code]
        return _Unit(notebook.uri, [d for d in documents if _is_python(d)], True)
    if unquote(uri) not in ls.workspace.text_documents and uri not in ls.workspace.text_documents:
        return None  # never opened (a hover or save the editor sent for it anyway): nothing to say
    document = ls.workspace.get_text_document(uri)
    return _Unit(uri, [document], False) if _is_python(document) else None


class _State:
    """Per unit: the findings of the last versions linted, what the next lint can reuse of the
    last one, and whether a lint is queued."""

    def __init__(self) -> None:
        self.linted: Dict[str, _Linted] = {}
        self.documents: Dict[str, Document] = {}
        self.published: Dict[str, List[str]] = {}  # unit -> the text documents given diagnostics
        self.queued: set = set()

    def forget(self, uri: str) -> List[str]:
        """Drop what is known of the unit `uri`; the text documents it had published to."""
        self.linted.pop(uri, None)
        self.documents.pop(uri, None)
        self.queued.discard(uri)
        return self.published.pop(uri, [])


def _linted(ls: LanguageServer, unit: _Unit) -> Optional[_Linted]:
    """The findings of the unit's current versions, linted at most once per version; None for a
    large unit whose lint is running in the background (its findings are published when done)."""
    texts = tuple(cell.source for cell in unit.cells)
    versions = tuple(cell.version for cell in unit.cells)
    known = ls.nnl_state.linted.get(unit.uri)
    if known is not None and known.versions == versions and known.texts == texts:
        return known
    options = _options(ls, unit.uri)
    if sum(map(len, texts)) > LARGE_DOCUMENT:
        _lint_in_background(ls, unit, texts, versions, options)
        return None
    document = ls.nnl_state.documents.setdefault(unit.uri, Document())
    findings, error = source.checked(unit.source(texts, options), options, document)
    if error:
        _log(ls, f"{unit.uri}: {error}")
    known = _Linted(texts, versions, options, findings)
    ls.nnl_state.linted[unit.uri] = known
    return known


def _lint_in_background(ls: LanguageServer, unit: _Unit, texts, versions, options: LintOptions) -> None:
    from nnsight_lint.doors.background import Linter

    if ls.nnl_background is None:
        loop = asyncio.get_event_loop()
        ls.nnl_background = Linter(loop.call_soon_threadsafe)
    path = _settings_path(unit.uri) or "untitled.py"

    def done(key: str, job: tuple, result) -> None:
        findings, error = result
        if error:
            _log(ls, f"{key}: {error}")
        current = _unit(ls, key)
        if current is None or tuple(cell.source for cell in current.cells) != job[1]:
            return  # closed, or changed: the newer version's lint is queued or running
        ls.nnl_state.linted[key] = _Linted(job[1], versions, options, findings)
        _publish(ls, key)

    ls.nnl_background.submit(unit.uri, (path, texts, unit.notebook, _is_cell(unit.uri), options), done)


def _publish(ls: LanguageServer, uri: str) -> None:
    unit = _unit(ls, uri)
    if unit is None:
        return
    linted, encoding = _linted(ls, unit), _encoding(ls)
    if linted is None:
        return  # linting in the background: published when it ends
    uris = [cell.uri for cell in unit.cells]
    for stale in set(ls.nnl_state.published.get(unit.uri, [])) - set(uris):  # a cell deleted or no longer code
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(stale, []))
    ls.nnl_state.published[unit.uri] = uris
    for cell in unit.cells:
        lines = split_lines(cell.source)
        found = [to_lsp_diagnostic(d, lines, encoding) for d in unit.findings_of(linted, cell.uri)]
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(cell.uri, found, version=cell.version))


def _publish_soon(ls: LanguageServer, uri: str) -> None:
    """Lint once the server has handled what the editor has sent so far, at whatever version the
    unit has then: changes that arrive meanwhile join this lint instead of queueing their own."""
    state = ls.nnl_state
    unit = _unit(ls, uri)
    if unit is None or unit.uri in state.queued:
        return
    key = unit.uri
    state.queued.add(key)
    since = time.monotonic()
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no event loop (a synchronous transport): lint now
        loop = None

    def run() -> None:
        if key not in state.queued:  # closed meanwhile
            return
        given = ls.nnl_input
        if loop and given is not None and given.waiting() and time.monotonic() - since < PATIENCE_SECONDS:
            loop.call_later(0.001, run)  # what is waiting may supersede this version
            return
        state.queued.discard(key)
        try:
            still_open = ls.workspace.text_documents.get(unquote(key)) or ls.workspace.get_notebook_document(notebook_uri=key)
            if still_open is not None:
                _publish(ls, key)
        except Exception as error:
            _log(ls, f"internal error while linting {key}: {type(error).__name__}: {error}")

    if loop is None:
        run()
    else:
        loop.call_soon(run)


def _document_findings(ls: LanguageServer, uri: str):
    """(the text document, its findings at its own lines, the unit, what was linted), or None."""
    unit = _unit(ls, uri)
    if unit is None:
        return None
    document = next((cell for cell in unit.cells if cell.uri == uri), None)
    if document is None:  # a markdown cell, or a cell in another language
        return None
    linted = _linted(ls, unit)
    if linted is None:
        return None  # a large document still being linted: no stale positions offered
    return document, unit.findings_of(linted, uri), unit, linted


def _code_actions(ls: LanguageServer, params: types.CodeActionParams) -> Optional[List[types.CodeAction]]:
    uri = params.text_document.uri
    found = _document_findings(ls, uri)
    if found is None:
        return None
    document, findings, unit, linted = found
    text, encoding = document.source, _encoding(ls)
    lines = split_lines(text)
    actions = []
    if _wanted(types.CodeActionKind.QuickFix, params.context.only):
        for finding in findings:
            diagnostic = to_lsp_diagnostic(finding, lines, encoding)
            if not _touches(diagnostic.range, params.range):
                continue
            if finding.fix is not None and finding.fix.edits:
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
    # Fix-all covers the whole unit: every cell of a notebook, whichever cell asked.
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
    """Fill in fix-all's edit, for the documents as they are now (an edit for an older version
    would land on the wrong text). No edit when nothing changes or the fixes cannot be applied."""
    data = action.data or {}
    uri = data.get("uri") if isinstance(data, dict) else None
    if action.kind != FIX_ALL or uri is None or ls.workspace.text_documents.get(unquote(uri)) is None:
        return action
    unit = _unit(ls, uri)
    if unit is None:
        return action
    linted = _linted(ls, unit)
    if linted is None or sum(len(cell.source) for cell in unit.cells) > LARGE_DOCUMENT:
        return action  # fix-all re-lints the whole text several times: `nnsight-lint check --fix`
    fixed = _fix_all(ls, unit, linted.options)
    if fixed is None:
        return action
    changes = {
        cell.uri: [replace_changed_lines(cell.source, new, _encoding(ls))]
        for cell, new in zip(unit.cells, fixed)
        if new != cell.source
    }
    if changes:
        action.edit = types.WorkspaceEdit(changes=changes)
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
    found = _document_findings(ls, params.text_document.uri)
    if found is None:
        return None
    document, findings = found[:2]
    lines, encoding = split_lines(document.source), _encoding(ls)
    here = types.Range(params.position, params.position)
    parts, ranges = [], []
    for finding in findings:
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


def _fix_all(ls: LanguageServer, unit: _Unit, options: LintOptions) -> Optional[List[str]]:
    """The unit's texts (each cell's, for a notebook) with every safe fix applied, re-linted until
    stable; None when the fixes cannot be applied."""
    from nnsight_lint.engine.fixing import FixError

    texts = [cell.source for cell in unit.cells]
    document = unit.source(texts, options)
    try:
        if isinstance(document, source.Cells):
            return document.fixed(options)[0] if unit.notebook else [document.fixed(options)[0][0]]
        # A syntax error outside the code the fixes touch (a helper being typed) does not stop
        # fix-all: each pass must only keep that code parsing, adding no syntax error.
        return [document.fixed(texts[0], options, lenient=True).text]
    except FixError as error:
        _log(ls, f"{unit.uri}: {error}; no fix-all offered")
    except Exception as error:
        _log(ls, f"{unit.uri}: internal error while fixing: {type(error).__name__}: {error}")
    return None


def _log(ls: LanguageServer, message: str) -> None:
    ls.window_log_message(types.LogMessageParams(types.MessageType.Error, f"nnsight-lint: {message}"))
