"""The language server is never deaf (issue 25, items 8-9), through the real server process over
real pipes: a malformed frame costs at most that message; a request after `shutdown` is an
InvalidRequest error; SIGINT ends the server; a hover or save of a document never opened is no
"internal error"; a huge document is not linted whole, and other documents and requests are
answered meanwhile, in bounded memory.
"""
from __future__ import annotations

import json
import signal
import time

import pytest

from tests.support import TWO_INVOKES
from tests.test_lsp import URI, Client

pytest.importorskip("pygls")

OTHER = "file:///nonexistent-nnsight-lint/other.py"


def frame(message: dict, length=None, header: bytes = b"Content-Length", eol: bytes = b"\r\n") -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False).encode("utf-8")
    counted = len(body) if length is None else length
    return header + b": " + str(counted).encode() + eol + eol + body


def hover(ident: int) -> dict:
    return {"id": ident, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": URI}, "position": {"line": 2, "character": 40}}}


NON_ASCII = {"method": "window/workDoneProgress/cancel", "params": {"token": "café 😀 naïve"}}
MALFORMED = {
    "length in characters": lambda m: frame(m, length=len(json.dumps({"jsonrpc": "2.0", **m}, ensure_ascii=False))),
    "lowercase header": lambda m: frame(m, header=b"content-length"),
    "LF-only header": lambda m: frame(m, eol=b"\n"),
    "negative length": lambda m: frame(m, length=-12),
    "non-numeric length": lambda m: frame(m, length="twelve"),
}


@pytest.fixture
def client():
    client = Client()
    try:
        client.initialize()
        yield client
    finally:
        client.stop()


def raw(client: Client, data: bytes) -> None:
    client.process.stdin.write(data)
    client.process.stdin.flush()


def test_one_malformed_frame_never_leaves_the_server_deaf(client):
    client.open(TWO_INVOKES)
    ident = 1000
    for name, malformed in MALFORMED.items():
        raw(client, malformed(NON_ASCII) + b"".join(frame(hover(ident + n)) for n in range(5)))
        for n in range(5):
            response = client._wait(lambda m, want=ident + n: m.get("id") == want)
            assert "error" not in response, (name, response)
        ident += 5
    assert client.process.poll() is None
    # A frame whose length is off by the non-ASCII text's extra bytes is still read.
    raw(client, MALFORMED["length in characters"](hover(5000)))
    assert client._wait(lambda m: m.get("id") == 5000)["result"] is not None


def test_a_request_after_shutdown_is_an_invalid_request_error(client):
    assert "error" not in client.request("shutdown", None)
    response = client.request("textDocument/hover", hover(0)["params"])
    assert response["error"]["code"] == -32600, response
    client.notify("exit", None)
    assert client.process.wait(timeout=20) == 0


def test_sigint_ends_the_server(client):
    client.open(TWO_INVOKES)
    client.process.send_signal(signal.SIGINT)
    assert client.process.wait(timeout=20) == 128 + signal.SIGINT
    assert "Traceback" not in client.stop()


def test_hover_and_save_of_a_document_never_opened_are_not_internal_errors(client):
    never = "file:///nonexistent-nnsight-lint/never_opened.py"
    response = client.request("textDocument/hover", {"textDocument": {"uri": never}, "position": {"line": 0, "character": 0}})
    assert response.get("result") is None and "error" not in response
    client.notify("textDocument/didSave", {"textDocument": {"uri": never}})
    client.request("textDocument/codeAction", {"textDocument": {"uri": never}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}})
    client.open(TWO_INVOKES)  # a round trip after them: everything they caused has been sent
    logged = [m["params"]["message"] for m in client._pending if m.get("method") == "window/logMessage"]
    assert not [text for text in logged if "internal error" in text], logged


BIG = "file:///nonexistent-nnsight-lint/big.py"


def _peak_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def test_a_huge_document_leaves_the_server_answering_in_bounded_memory(client):
    """5 MB of traces: linted in a child process; meanwhile another document gets its findings
    and requests are answered, and the server's own memory stays small."""
    from benchmarks.huge_file import TRACE

    text = "import torch\n" + "".join(TRACE.format(i=i, layer=i % 2) for i in range(24_000))
    assert len(text) > 5_000_000
    client.notify("textDocument/didOpen", {"textDocument": {"uri": BIG, "languageId": "python", "version": 1, "text": text}})
    started = time.monotonic()
    small = client.open(TWO_INVOKES)
    assert [d["code"] for d in small["diagnostics"]] == ["NNL001"]
    assert client.request("textDocument/hover", hover(0)["params"])["result"] is not None
    assert client.request("textDocument/hover", {"textDocument": {"uri": BIG}, "position": {"line": 3, "character": 8}}).get("result") is None
    assert time.monotonic() - started < 20
    if hasattr(client.process, "pid") and __import__("os").path.exists(f"/proc/{client.process.pid}/status"):
        assert _peak_mib(client.process.pid) < 400
    client.notify("textDocument/didClose", {"textDocument": {"uri": BIG}})  # kills its lint
    assert client.diagnostics(BIG)["diagnostics"] == []


def test_a_large_document_gets_its_findings_from_the_background(client):
    """Over the in-process limit (1 MB) but quick to lint: the findings arrive, for its version."""
    text = '"""' + "A long docstring line.\n" * 48_000 + '"""\n' + TWO_INVOKES
    assert len(text) > 1_000_000
    client.notify("textDocument/didOpen", {"textDocument": {"uri": BIG, "languageId": "python", "version": 3, "text": text}})
    published = client.diagnostics(BIG)
    assert published["version"] == 3 and [d["code"] for d in published["diagnostics"]] == ["NNL001"]
    assert published["diagnostics"][0]["range"]["start"]["line"] == text.count("\n", 0, text.index(TWO_INVOKES)) + 2
