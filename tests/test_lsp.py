"""`nnsight-lint server`: a real server process driven over stdio by a small JSON-RPC client.

The client is written here, independent of pygls, so the tests see the bytes an editor sees:
camelCase fields, 0-based lines, columns in UTF-16 code units. Every wait has a timeout and every
server process is killed at teardown, so a broken server fails a test instead of hanging CI.
"""
from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from nnsight_lint import messages
from nnsight_lint.engine.lint import lint_source
from tests.support import TWO_INVOKES, run_cli

pytest.importorskip("pygls")

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 20.0  # seconds for any one answer; the first includes the server's start-up
URI = "file:///nonexistent-nnsight-lint/example.py"  # no pyproject.toml above it

FIXED = TWO_INVOKES.replace(".backward()\n    with", ".backward(retain_graph=True)\n    with")
THREE_INVOKES = TWO_INVOKES + """\
    with tracer.invoke("a dog ran"):
        model.lm_head.output.sum().backward()
"""
THREE_FIXED = THREE_INVOKES.replace(".backward()\n    with", ".backward(retain_graph=True)\n    with")
# Before the finding on line 3: accented letters (one UTF-16 unit each, two UTF-8 bytes) and
# emoji outside the BMP (one code point, two UTF-16 units, four UTF-8 bytes).
WIDE = TWO_INVOKES.replace(
    "        model.lm_head.output.sum().backward()\n    with",
    '        note = "café 😀 naïve 🎉"; model.lm_head.output.sum().backward()\n    with',
)
SYNTAX_ERROR = 'with model.trace() as tracer:\n    x = (\n        model.lm_head.output.sum().backward()\n'


class Client:
    """JSON-RPC over the pipes of `python -m nnsight_lint server`."""

    def __init__(self, *args: str, cwd=ROOT) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "nnsight_lint", "server", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self._inbox: "queue.Queue[dict]" = queue.Queue()
        self._pending = []  # notifications read while waiting for something else
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            self._inbox.put(json.loads(stream.read(int(headers["content-length"])).decode("utf-8")))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params) -> dict:
        """The whole response message (`result` or `error`)."""
        self._next_id += 1
        self.send({"id": self._next_id, "method": method, "params": params})
        return self._wait(lambda m: m.get("id") == self._next_id and "method" not in m)

    def diagnostics(self, uri: str = URI) -> dict:
        """The next publishDiagnostics params for `uri`."""
        message = self._wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        )
        return message["params"]

    def _wait(self, wanted) -> dict:
        for message in self._pending:
            if wanted(message):
                self._pending.remove(message)
                return message
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                message = self._inbox.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError(f"no answer within {TIMEOUT}s; server stderr: {self.stop()}") from None
            if wanted(message):
                return message
            if "method" in message and "id" in message:  # a request from the server: answer it
                self.send({"id": message["id"], "result": None})
            else:
                self._pending.append(message)

    def initialize(self, capabilities=None) -> dict:
        params = {"processId": os.getpid(), "rootUri": None, "capabilities": capabilities or {}}
        response = self.request("initialize", params)
        self.notify("initialized", {})
        return response["result"]

    def open(self, text: str, uri: str = URI, version: int = 1) -> dict:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}},
        )
        return self.diagnostics(uri)

    def change(self, text: str, version: int, uri: str = URI) -> dict:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )
        return self.diagnostics(uri)

    def code_actions(self, range_: dict, only=None, diagnostics=(), uri: str = URI) -> list:
        context = {"diagnostics": list(diagnostics), **({"only": only} if only is not None else {})}
        response = self.request(
            "textDocument/codeAction", {"textDocument": {"uri": uri}, "range": range_, "context": context}
        )
        assert "error" not in response, response
        return response["result"] or []

    def shutdown_and_exit(self) -> int:
        response = self.request("shutdown", None)
        assert response.get("result") is None and "error" not in response, response
        self.notify("exit", None)
        return self.process.wait(timeout=TIMEOUT)

    def stop(self) -> str:
        """Kill the server if it still runs; its stderr."""
        if self.process.poll() is None:
            self.process.kill()
        try:
            _, stderr = self.process.communicate(timeout=TIMEOUT)
        except (ValueError, OSError):  # pipes already closed
            stderr = b""
        return (stderr or b"").decode("utf-8", "replace")


@pytest.fixture
def client():
    client = Client("--stdio")  # editors' stdio transports pass --stdio
    try:
        yield client
    finally:
        client.stop()


@pytest.fixture(scope="module")
def shared_server():
    """One initialized server for the document tests (start-up costs about two seconds); it must
    outlive them all and exit cleanly at the end."""
    client = Client()
    try:
        client.initialize()
        yield client
        assert client.process.poll() is None, "the server died"
        assert client.shutdown_and_exit() == 0
        assert "Traceback" not in client.stop()
    finally:
        client.stop()


@pytest.fixture
def server(shared_server):
    yield shared_server
    assert shared_server.process.poll() is None, "the server died"
    shared_server.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    assert shared_server.diagnostics()["diagnostics"] == []
    shared_server._pending.clear()


# --- applying LSP edits, independently of the server ---------------------------------------------


def offset(text: str, position: dict, encoding: str = "utf-16") -> int:
    """The code-point offset of an LSP position whose character counts `encoding` code units."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    start = starts[position["line"]]
    line = re.split(r"\r\n|\r|\n", text[start:], maxsplit=1)[0]
    units = 0
    for index, char in enumerate(line):
        if units >= position["character"]:
            return start + index
        units += {"utf-8": len(char.encode("utf-8")), "utf-16": len(char.encode("utf-16-le")) // 2}[encoding]
    return start + len(line)


def apply(text: str, edits: list, encoding: str = "utf-16") -> str:
    where = lambda position: offset(text, position, encoding)  # noqa: E731
    spans = sorted(((where(e["range"]["start"]), where(e["range"]["end"]), e["newText"]) for e in edits), reverse=True)
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def at(line: int, character: int) -> dict:
    return {"line": line, "character": character}


def fixes(actions: list) -> list:
    """The quick fixes that fix, without the "disable for this line" ones."""
    return [a for a in actions if a["kind"] == "quickfix" and " fix " in a["title"]]


# --- the protocol ------------------------------------------------------------------------------


def test_initialize_handshake_advertises_the_capabilities(client):
    result = client.initialize()
    capabilities = result["capabilities"]
    assert result["serverInfo"]["name"] == "nnsight-lint"
    assert capabilities["positionEncoding"] == "utf-16"
    assert capabilities["textDocumentSync"]["openClose"] is True
    assert capabilities["textDocumentSync"]["change"] == 1  # full text
    assert capabilities["textDocumentSync"]["save"]
    assert set(capabilities["codeActionProvider"]["codeActionKinds"]) == {"quickfix", "source.fixAll.nnsight-lint"}
    assert capabilities["codeActionProvider"]["resolveProvider"] is True
    assert capabilities["hoverProvider"] is True
    assert client.shutdown_and_exit() == 0


def test_open_publishes_nnl001_at_the_zero_based_range(server):
    published = server.open(TWO_INVOKES)
    assert published["version"] == 1
    (diagnostic,) = published["diagnostics"]
    start = TWO_INVOKES.splitlines()[2].index("backward")  # `nnsight-lint check` says 3:36
    assert diagnostic == {
        "range": {"start": at(2, start), "end": at(2, start + len("backward"))},
        "severity": 2,  # Warning
        "code": "NNL001",
        "codeDescription": {"href": messages.DOCS_URL.format(code="NNL001")},
        "source": "nnsight-lint",
        "message": messages.nnl001("backward()", 5),
    }
    assert start == 35


def test_change_save_and_close_republish(server):
    assert len(server.open(TWO_INVOKES)["diagnostics"]) == 1
    cleared = server.change(FIXED, version=2)
    assert cleared == {"uri": URI, "version": 2, "diagnostics": []}
    assert len(server.change(TWO_INVOKES, version=3)["diagnostics"]) == 1
    server.notify("textDocument/didSave", {"textDocument": {"uri": URI}})
    assert [d["code"] for d in server.diagnostics()["diagnostics"]] == ["NNL001"]
    server.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    assert server.diagnostics()["diagnostics"] == []


def test_quick_fix_edit_gives_the_fixed_text(server):
    (diagnostic,) = server.open(TWO_INVOKES)["diagnostics"]
    actions = server.code_actions(diagnostic["range"], diagnostics=[diagnostic])
    (action,) = fixes(actions)
    assert action["isPreferred"] is True
    assert action["diagnostics"] == [diagnostic]
    assert list(action["edit"]["changes"]) == [URI]
    assert apply(TWO_INVOKES, action["edit"]["changes"][URI]) == FIXED
    # A cursor on the finding, with no diagnostics in the context, gets the same fix.
    cursor = {"start": at(2, 40), "end": at(2, 40)}
    assert fixes(server.code_actions(cursor, only=["quickfix"])) == [action]
    # Elsewhere in the file there is no quick fix.
    elsewhere = {"start": at(0, 0), "end": at(0, 4)}
    assert [a for a in server.code_actions(elsewhere) if a["kind"] == "quickfix"] == []


def test_fix_all_applies_every_safe_fix(server):
    assert len(server.open(THREE_INVOKES)["diagnostics"]) == 2
    anywhere = {"start": at(0, 0), "end": at(0, 0)}
    (action,) = server.code_actions(anywhere, only=["source.fixAll"])
    assert action["kind"] == "source.fixAll.nnsight-lint"
    (edit,) = action["edit"]["changes"][URI]
    assert apply(THREE_INVOKES, [edit]) == THREE_FIXED
    assert edit["range"] == {"start": at(2, 0), "end": at(5, 0)}  # only the changed lines
    assert server.code_actions(anywhere, only=["quickfix"]) == []  # no finding at line 1
    # Nothing left to fix: no actions at all.
    assert server.change(THREE_FIXED, version=2)["diagnostics"] == []
    assert server.code_actions(anywhere) == []


def test_fix_all_without_a_trailing_newline(server):
    text = TWO_INVOKES.rstrip("\n")
    server.open(text)
    (action,) = server.code_actions({"start": at(0, 0), "end": at(0, 0)}, only=["source"])
    assert apply(text, action["edit"]["changes"][URI]) == FIXED.rstrip("\n")


def test_syntax_error_is_nnl000_and_the_server_lives_on(server):
    (diagnostic,) = server.open(SYNTAX_ERROR)["diagnostics"]
    (expected,) = lint_source(SYNTAX_ERROR)
    assert diagnostic["code"] == "NNL000"
    assert diagnostic["message"] == expected.message
    assert diagnostic["range"]["start"] == at(expected.line - 1, expected.column - 1)
    assert server.code_actions({"start": at(0, 0), "end": at(3, 0)}) == []
    assert len(server.change(TWO_INVOKES, version=2)["diagnostics"]) == 1


@pytest.mark.parametrize(
    "tail",
    [
        "\x00\x00", "x = '\ud800'\n", "x = 1 $ 2\n", "\r\n\r", "\x0c\n", "    if x:\n  pass\n",
        "f(" * 300, "x = -" + "(" * 5000,
    ],
    ids=["nul", "lone-surrogate", "bad-token", "bare-cr", "form-feed", "dedent", "300-calls", "5000-parens"],
)
def test_bad_input_never_crashes_the_server(server, tail):
    published = server.open(TWO_INVOKES + tail)  # after a trace, so the engine parses it
    assert [d["code"] for d in published["diagnostics"]] in (["NNL000"], ["NNL001"])
    server.code_actions({"start": at(0, 0), "end": at(9, 0)})
    assert len(server.change(TWO_INVOKES, version=2)["diagnostics"]) == 1


def test_nesting_that_would_crash_libcst_is_nnl000(server):
    """libcst's native parser dies (SIGSEGV) on this; CPython's parser refuses it with a message."""
    text = TWO_INVOKES + "x = " + "[" * 3000 + "]" * 3000 + "\n"
    (diagnostic,) = server.open(text)["diagnostics"]
    assert diagnostic["code"] == "NNL000"
    assert diagnostic["message"] == messages.NNL000_SYNTAX.format(detail="too many nested parentheses")
    assert diagnostic["range"]["start"]["line"] == 5


def test_settings_from_the_nearest_pyproject_apply(tmp_path, server):
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\nignore = ["NNL001"]\n', encoding="utf-8")
    uri = (tmp_path / "src" / "train.py").as_uri()
    assert server.open(TWO_INVOKES, uri=uri)["diagnostics"] == []
    assert server.code_actions({"start": at(2, 40), "end": at(2, 40)}, uri=uri) == []
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\nselect = ["NNL"]\n', encoding="utf-8")
    assert len(server.change(TWO_INVOKES, version=2, uri=uri)["diagnostics"]) == 1


def test_columns_are_utf16_code_units_by_default(server):
    (diagnostic,) = server.open(WIDE)["diagnostics"]
    line = WIDE.splitlines()[2]
    before = line[: line.index("backward")]
    utf16 = len(before.encode("utf-16-le")) // 2
    assert utf16 == len(before) + 2  # each emoji is two UTF-16 units: the test would catch code points
    assert diagnostic["range"] == {"start": at(2, utf16), "end": at(2, utf16 + len("backward"))}
    (action,) = fixes(server.code_actions(diagnostic["range"], only=["quickfix"]))
    fixed = WIDE.replace("backward()\n    with", "backward(retain_graph=True)\n    with")
    assert apply(WIDE, action["edit"]["changes"][URI]) == fixed


def test_columns_follow_the_encoding_the_client_prefers(client):
    assert client.initialize({"general": {"positionEncodings": ["utf-8", "utf-16"]}})["capabilities"][
        "positionEncoding"
    ] == "utf-8"
    (diagnostic,) = client.open(WIDE)["diagnostics"]
    line = WIDE.splitlines()[2]
    utf8 = len(line[: line.index("backward")].encode("utf-8"))
    assert diagnostic["range"]["start"] == at(2, utf8)
    (action,) = fixes(client.code_actions(diagnostic["range"], only=["quickfix"]))
    assert apply(WIDE, action["edit"]["changes"][URI], "utf-8").count("retain_graph=True") == 1
    assert client.shutdown_and_exit() == 0


def test_exit_without_shutdown_exits_one(client):
    client.initialize()
    client.notify("exit", None)
    assert client.process.wait(timeout=TIMEOUT) == 1


def test_missing_pygls_is_a_clear_usage_error():
    blocked = (
        "import sys; sys.modules['pygls'] = None; "
        "from nnsight_lint.doors.cli import main; raise SystemExit(main(['server']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2
    assert "nnsight-lint[lsp]" in result.stderr
    assert "Traceback" not in result.stderr


# --- documents that are not files ----------------------------------------------------------------


def test_untitled_buffer_uses_the_defaults_not_the_servers_working_directory(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\nignore = ["NNL001"]\n', encoding="utf-8")
    client = Client(cwd=tmp_path)
    try:
        client.initialize()
        # The pyproject applies to a file under it: it really would hide the finding ...
        assert client.open(TWO_INVOKES, uri=(tmp_path / "train.py").as_uri())["diagnostics"] == []
        # ... but an untitled buffer is no file there: the defaults apply.
        (diagnostic,) = client.open(TWO_INVOKES, uri="untitled:Untitled-1")["diagnostics"]
        assert diagnostic["code"] == "NNL001"
        assert client.shutdown_and_exit() == 0
    finally:
        client.stop()


def test_notebook_cell_sent_as_a_text_document_is_python_not_json(server):
    uri = "vscode-notebook-cell:/nonexistent-nnsight-lint/nb.ipynb#W0sZmlsZQ%3D%3D"
    (diagnostic,) = server.open(TWO_INVOKES, uri=uri)["diagnostics"]
    assert diagnostic["code"] == "NNL001"
    logs = [m for m in server._pending if m.get("method") == "window/logMessage"]
    assert not any("JSON" in m["params"]["message"] for m in logs), logs
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert server.diagnostics(uri)["diagnostics"] == []


# --- cheap code actions, coalesced changes -------------------------------------------------------

RESOLVING = {"textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}}


def test_fix_all_is_resolved_lazily_when_the_client_can(client):
    client.initialize(RESOLVING)
    assert len(client.open(THREE_INVOKES)["diagnostics"]) == 2
    (action,) = [a for a in client.code_actions({"start": at(2, 40), "end": at(2, 40)}) if a["kind"] == FIX_ALL_KIND]
    assert "edit" not in action  # the quick-fix request did not run fix-all
    resolved = client.request("codeAction/resolve", action)["result"]
    assert apply(THREE_INVOKES, resolved["edit"]["changes"][URI]) == THREE_FIXED
    assert client.shutdown_and_exit() == 0


FIX_ALL_KIND = "source.fixAll.nnsight-lint"


def test_superseded_versions_are_not_linted(server):
    """Five changes sent at once: the last is published, and the ones before it that were still
    queued are dropped, not linted one after the other."""
    big = TWO_INVOKES + "".join(f"\ndef f{n}(x):\n    return x + {n}\n" for n in range(400))
    server.open(big)
    for version in range(2, 7):
        server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": big + f"# {version}\n"}]},
        )
    published = [server.diagnostics()["version"]]
    while published[-1] != 6:
        published.append(server.diagnostics()["version"])
    assert published == sorted(published) and len(published) <= 2, published


# --- disable for this line, hover ----------------------------------------------------------------


@pytest.mark.parametrize("comment, expected", [
    ("", "  # noqa: NNL001"),
    ("  # noqa: E501", "  # noqa: E501, NNL001"),
])
def test_disable_for_this_line_adds_or_extends_noqa(server, comment, expected):
    text = TWO_INVOKES.replace(".backward()\n    with", f".backward(){comment}\n    with")
    (diagnostic,) = server.open(text)["diagnostics"]
    (action,) = [a for a in server.code_actions(diagnostic["range"]) if "disable" in a["title"]]
    assert action["title"] == "nnsight-lint: disable NNL001 for this line"
    assert action["kind"] == "quickfix" and not action.get("isPreferred")
    disabled = apply(text, action["edit"]["changes"][URI])
    assert disabled.splitlines()[2] == "        model.lm_head.output.sum().backward()" + expected
    assert server.change(disabled, version=2)["diagnostics"] == []  # the engine honours it


def test_hover_on_a_finding_shows_the_rules_explanation(server):
    from nnsight_lint import rules

    (diagnostic,) = server.open(TWO_INVOKES)["diagnostics"]
    response = server.request(
        "textDocument/hover", {"textDocument": {"uri": URI}, "position": at(2, 38)}
    )["result"]
    assert response["contents"]["kind"] == "markdown"
    assert response["contents"]["value"].startswith(f"**NNL001**: {diagnostic['message']}")
    assert rules.explanation("NNL001") in response["contents"]["value"]
    assert response["range"] == diagnostic["range"]
    assert server.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": at(0, 0)})["result"] is None


# --- notebooks synced as notebook documents --------------------------------------------------------

NOTEBOOK_URI = "file:///nonexistent-nnsight-lint/nb.ipynb"
HELPER = "def push(logits):\n    logits.sum().backward()\n"
HELPER_FIXED = "def push(logits):\n    logits.sum().backward(retain_graph=True)\n"
TRACE = (
    "with model.trace() as tracer:\n"
    "    with tracer.invoke('hello world'):\n"
    "        push(model.lm_head.output)\n"
    "    with tracer.invoke('the cat sat'):\n"
    "        model.lm_head.output.sum().backward()\n"
)


def cell_uri(name: str) -> str:
    return f"vscode-notebook-cell:/nonexistent-nnsight-lint/nb.ipynb#{name}"


def open_notebook(server, cells) -> dict:
    """didOpen a notebook of (name, kind, text) cells; the diagnostics published per cell."""
    server.notify("notebookDocument/didOpen", {
        "notebookDocument": {
            "uri": NOTEBOOK_URI, "notebookType": "jupyter-notebook", "version": 1,
            "cells": [{"kind": 2 if kind == "code" else 1, "document": cell_uri(name)} for name, kind, _ in cells],
        },
        "cellTextDocuments": [
            {"uri": cell_uri(name), "languageId": "python" if kind == "code" else "markdown", "version": 1, "text": text}
            for name, kind, text in cells
        ],
    })
    return {name: server.diagnostics(cell_uri(name)) for name, kind, _ in cells if kind == "code"}


def test_initialize_advertises_notebook_sync_to_a_client_that_has_it(client):
    capabilities = client.initialize({"notebookDocument": {"synchronization": {}}})["capabilities"]
    (selector,) = capabilities["notebookDocumentSync"]["notebookSelector"]
    assert selector["cells"] == [{"language": "python"}, {"language": "markdown"}, {"language": "raw"}]
    assert client.shutdown_and_exit() == 0


def test_notebook_cells_are_linted_together_and_published_per_cell(server):
    cells = [("a", "code", "!pip install nnsight\nimport torch\n"), ("md", "markdown", "# Oh hi\n"),
             ("b", "code", HELPER), ("c", "code", TRACE)]
    published = open_notebook(server, cells)
    assert published["a"]["diagnostics"] == [] and published["c"]["diagnostics"] == []  # `!pip` is masked
    # The helper in cell b frees the graph that the trace in the next cell needs.
    (diagnostic,) = published["b"]["diagnostics"]
    assert diagnostic["code"] == "NNL001"
    assert diagnostic["range"] == {"start": at(1, 17), "end": at(1, 25)}
    assert "line 5 of cell 3" in diagnostic["message"]  # code cells counted, as `check` counts them
    logs = [m["params"]["message"] for m in server._pending if m.get("method") == "window/logMessage"]
    assert not any("JSON" in m or "internal error" in m for m in logs), logs

    # A quick fix edits its own cell.
    actions = server.code_actions(diagnostic["range"], uri=cell_uri("b"), diagnostics=[diagnostic])
    (fix,) = fixes(actions)
    assert list(fix["edit"]["changes"]) == [cell_uri("b")]
    assert apply(HELPER, fix["edit"]["changes"][cell_uri("b")]) == HELPER_FIXED
    # Fix-all from any cell fixes the notebook: here, an edit to cell b only.
    (fix_all,) = server.code_actions({"start": at(0, 0), "end": at(0, 0)}, only=[FIX_ALL_KIND], uri=cell_uri("c"))
    assert list(fix_all["edit"]["changes"]) == [cell_uri("b")]
    assert apply(HELPER, fix_all["edit"]["changes"][cell_uri("b")]) == HELPER_FIXED

    # Typing the fix into cell b clears its finding.
    server.notify("notebookDocument/didChange", {
        "notebookDocument": {"uri": NOTEBOOK_URI, "version": 2},
        "change": {"cells": {"textContent": [
            {"document": {"uri": cell_uri("b"), "version": 2}, "changes": [{"text": HELPER_FIXED}]},
        ]}},
    })
    assert server.diagnostics(cell_uri("b")) == {"uri": cell_uri("b"), "version": 2, "diagnostics": []}

    # Closing the notebook clears every cell.
    server.notify("notebookDocument/didClose", {
        "notebookDocument": {"uri": NOTEBOOK_URI},
        "cellTextDocuments": [{"uri": cell_uri(name)} for name, _, _ in cells],
    })
    for name in ("a", "b", "c"):
        assert server.diagnostics(cell_uri(name))["diagnostics"] == []


def test_fix_all_composes_two_rules_on_one_line_of_a_notebook_cell(server):
    """A one-line trace (NNL206) whose `h` a later cell reads (NNL101): fix-all is offered, and its
    edit of the cell is what `check --fix` writes (both fixes, the second after a re-lint)."""
    one_line = 'with model.trace("hello world"): h = -model.transformer.h[0].output\n'
    published = open_notebook(server, [("t", "code", one_line), ("r", "code", "print(h.shape)\n")])
    assert sorted(d["code"] for d in published["t"]["diagnostics"]) == ["NNL101", "NNL206"]
    (fix_all,) = server.code_actions({"start": at(0, 0), "end": at(0, 0)}, only=[FIX_ALL_KIND], uri=cell_uri("r"))
    assert list(fix_all["edit"]["changes"]) == [cell_uri("t")]
    assert apply(one_line, fix_all["edit"]["changes"][cell_uri("t")]) == (
        'with model.trace("hello world"):\n    h = (-model.transformer.h[0].output).save()\n'
    )
    server.notify("notebookDocument/didClose", {
        "notebookDocument": {"uri": NOTEBOOK_URI},
        "cellTextDocuments": [{"uri": cell_uri("t")}, {"uri": cell_uri("r")}],
    })


def test_a_deleted_cell_loses_its_diagnostics(server):
    published = open_notebook(server, [("b", "code", HELPER), ("c", "code", TRACE)])
    assert len(published["b"]["diagnostics"]) == 1
    server.notify("notebookDocument/didChange", {
        "notebookDocument": {"uri": NOTEBOOK_URI, "version": 2},
        "change": {"cells": {"structure": {
            "array": {"start": 0, "deleteCount": 1}, "didClose": [{"uri": cell_uri("b")}],
        }}},
    })
    assert server.diagnostics(cell_uri("b"))["diagnostics"] == []
    assert server.diagnostics(cell_uri("c"))["diagnostics"] == []  # the trace alone frees nothing twice
    server.notify("notebookDocument/didClose", {"notebookDocument": {"uri": NOTEBOOK_URI}, "cellTextDocuments": [{"uri": cell_uri("c")}]})
    assert server.diagnostics(cell_uri("c"))["diagnostics"] == []


def test_a_notebook_cell_sent_alone_masks_ipython_lines(server):
    uri = cell_uri("alone")
    text = "!pip install nnsight\n%matplotlib inline\n" + TWO_INVOKES
    (diagnostic,) = server.open(text, uri=uri)["diagnostics"]
    assert (diagnostic["code"], diagnostic["range"]["start"]) == ("NNL001", at(4, 35))
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert server.diagnostics(uri)["diagnostics"] == []


# --- incremental: a typing session equals a fresh lint of each version -----------------------------


def test_every_version_of_a_typing_session_gets_a_whole_lint_s_findings(server):
    """Edits inside a trace, in a helper, around a syntax error and back: the server re-parses only
    what changed, and each version's diagnostics are exactly what linting it from scratch gives."""
    helper = "\n\ndef helper(x):\n    return x * 2\n"
    versions = [TWO_INVOKES + helper]
    versions.append(versions[-1].replace("sum().backward()", "mean().backward()", 1))  # in the trace
    versions.append(versions[-1].replace("x * 2", "x * 3"))  # in a helper slicing blanks
    versions.append(versions[-1].replace("return x * 3", "return (x * 3"))  # a syntax error
    versions.append(versions[-1].replace("return (x * 3", "return x * 3"))  # fixed again
    versions.append(versions[-1] + THREE_INVOKES)  # a trace typed at the end
    versions.append(versions[-1].replace(".backward()\n    with", ".backward(retain_graph=True)\n    with", 1))
    server.open(versions[0])
    for version, text in enumerate(versions[1:], start=2):
        got = server.change(text, version=version)["diagnostics"]
        expected = lint_source(text, "example.py")
        assert [(d["code"], d["range"]["start"]) for d in got] == [
            (e.code, at(e.line - 1, e.column - 1)) for e in expected
        ], version
        assert [d["message"] for d in got] == [e.message for e in expected]


@pytest.mark.parametrize("case", ["NNL502/trace_empty_prompt.py", "NNL504/output_read_after_trace.py",
                                  "NNL505/with_iter_step_past_end.py", "NNL506/torch_block_through_module.py",
                                  "NNL601/generator_read_in_block.py"])
def test_case_findings_of_the_lifecycle_and_remote_rules_are_published(server, case):
    """The server carries the NNL5xx/NNL6xx codes through the registry: each case's marked line."""
    from tests.test_rule_cases import expected_findings

    text = (ROOT / "rules" / case).read_text(encoding="utf-8")
    published = server.open(text)
    got = {(d["range"]["start"]["line"] + 1, d["code"]) for d in published["diagnostics"]}
    assert got == expected_findings(text)

# --- a notebook in the editor is linted exactly as `check` lints the .ipynb -------------------------

# The notebooks of the tests and the rule cases that are notebooks (NNL208's cell magics).
NOTEBOOKS = sorted((ROOT / "tests").rglob("*.ipynb")) + sorted((ROOT / "rules").glob("NNL*/*.ipynb"))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_notebook_synced_with_its_markdown_gets_the_findings_check_reports(server, notebook, tmp_path):
    """All cells are sent, as VS Code sends a Jupyter notebook (markdown cells as markdown, raw
    cells in the `raw` language): what the markdown says makes a cell a demo in both doors."""
    path = tmp_path / notebook.name  # no pyproject.toml above it: both doors use the defaults
    path.write_bytes(notebook.read_bytes())
    checked = run_cli("check", "--no-cache", "--output-format", "json", str(path))
    assert checked.returncode in (0, 1), checked.stderr
    expected = sorted((d["cell"], d["location"]["row"] - 1, d["code"], d["message"]) for d in json.loads(checked.stdout)["findings"])

    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    uri = path.as_uri()
    cell = lambda n: f"vscode-notebook-cell:{path}#c{n}"  # noqa: E731
    language = {"code": "python", "markdown": "markdown"}
    server.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": uri, "notebookType": "jupyter-notebook", "version": 1, "cells": [
            {"kind": 1 if c["cell_type"] == "markdown" else 2, "document": cell(n)} for n, c in enumerate(cells)
        ]},
        "cellTextDocuments": [
            {"uri": cell(n), "languageId": language.get(c["cell_type"], "raw"), "version": 1,
             "text": "".join(c["source"]) if isinstance(c["source"], list) else c["source"]}
            for n, c in enumerate(cells)
        ],
    })
    code_cells = [n for n, c in enumerate(cells) if c["cell_type"] == "code"]
    published = []
    for number, n in enumerate(code_cells, start=1):
        published += [(number, d["range"]["start"]["line"], d["code"], d["message"]) for d in server.diagnostics(cell(n))["diagnostics"]]
    server.notify("notebookDocument/didClose", {
        "notebookDocument": {"uri": uri}, "cellTextDocuments": [{"uri": cell(n)} for n in range(len(cells))],
    })
    assert sorted(published) == expected
    if notebook.name == "walkthrough.ipynb":  # the markdown makes three of its four findings demos
        assert [code for _, _, code, _ in expected] == ["NNL101"]
