"""Latency of `nnsight-lint server` as an editor sees it, on a 1,000-line file with 20 traces.

    python benchmarks/bench_lsp.py [--edits 30]

Drives a real server process over stdio (JSON-RPC written here, as an editor writes it) and
measures, from the moment the client has sent the message:

- edit -> diagnostics: a `didChange` (one character changed) until its `publishDiagnostics`, for
  an edit in a function without a trace and for one in a function holding a trace (whose
  statements are parsed again and whose positions are generated again);
- quick fix: a `codeAction` request on a finding until its answer (the client supports
  `codeAction/resolve`, so fix-all comes without its edit);
- fix-all resolve: `codeAction/resolve` of the fix-all action until its answer (the full cost of
  fixing, paid only when the user picks it);
- burst: five changes sent at once until the last version's diagnostics, and how many versions were
  published (the rest were coalesced).

Also the engine alone on the same text: a whole lint (`lint_text`), and a lint of an edited
version that reuses the last one's parse (`incremental.Document`), as the server does. Prints
medians; benchmarks/RESULTS.md keeps the latest table.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
URI = "file:///nonexistent-nnsight-lint-bench/experiment.py"

TRACE = '''

def attribute_{n}(prompts, layer={layer}):
    """Gradients of layer {layer} for two prompts, in one batched trace."""
    with model.trace() as tracer:
        with tracer.invoke(prompts[0]):
            hidden = model.transformer.h[layer].output
            loss = model.lm_head.output[0, -1].max()
            loss.backward()
            first = hidden.grad.save()
        with tracer.invoke(prompts[1]):
            hidden = model.transformer.h[layer].output
            loss = model.lm_head.output[0, -1].max()
            loss.backward()
            second = hidden.grad.save()
    return first, second
'''
FILLER = '''

def summarise_{n}(values, scale={n}):
    """Ordinary code between the traces."""
    total = 0
    for index, value in enumerate(values):
        if index % 2:
            total += value * scale
        else:
            total -= value / (scale + 1)
    return total
'''


def make_file(traces: int = 20, lines: int = 1000) -> str:
    text = (
        "import torch\nfrom nnsight import TransformersModel\n\n"
        'model = TransformersModel("openai-community/gpt2", task="text-generation")\n'
    )
    for n in range(traces):
        text += TRACE.format(n=n, layer=n % 12)
    n = 0
    while text.count("\n") < lines:
        text += FILLER.format(n=n)
        n += 1
    return text


class Server:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "nnsight_lint", "server"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.next_id = 0

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        length = 0
        while True:
            line = self.process.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def request(self, method: str, params) -> dict:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                return message["result"]

    def notify(self, method: str, params) -> None:
        self.send({"method": method, "params": params})

    def diagnostics(self) -> dict:
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics":
                return message["params"]

    def change(self, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}],
        })

    def stop(self) -> None:
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=30)


def in_trace(text: str, n: int) -> str:
    """`text` with one character changed inside the first trace."""
    return re.sub(r"output\[0, -\d\]\.max\(\)", f"output[0, -{n % 7 + 1}].max()", text, count=1)


def in_helper(text: str, n: int) -> str:
    """`text` with one character changed in the first function without a trace."""
    return re.sub(r"scale=\d\)", f"scale={n % 7})", text, count=1)


def median_ms(samples) -> float:
    return round(statistics.median(samples) * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--edits", type=int, default=30)
    args = parser.parse_args()
    text = make_file()

    sys.path.insert(0, str(ROOT))
    from nnsight_lint.doors.api import lint_text
    from nnsight_lint.engine.lint import DEFAULT_OPTIONS, lint_source
    from nnsight_lint.engine.incremental import Document

    lint_text(text, "experiment.py")
    engine, incremental, document = [], [], Document()
    lint_source(text, "experiment.py", DEFAULT_OPTIONS, document)
    for n in range(args.edits):
        start = time.perf_counter()
        lint_text(text, "experiment.py")
        engine.append(time.perf_counter() - start)
        start = time.perf_counter()
        lint_source(in_trace(text, n), "experiment.py", DEFAULT_OPTIONS, document)
        incremental.append(time.perf_counter() - start)

    server = Server()
    server.request("initialize", {
        "processId": os.getpid(), "rootUri": None,
        "capabilities": {"textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}},
    })
    server.notify("initialized", {})
    server.notify("textDocument/didOpen", {
        "textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": text},
    })
    (finding, *_) = server.diagnostics()["diagnostics"]

    # Each version is the last one edited in one place, as when typing.
    version, edited, edit, edit_trace, quick, resolve, burst, published = 1, text, [], [], [], [], [], []
    for n in range(args.edits):
        for change, samples in ((in_trace, edit_trace), (in_helper, edit)):
            version += 1
            edited = change(edited, n)
            start = time.perf_counter()
            server.change(edited, version)
            while server.diagnostics()["version"] != version:
                pass
            samples.append(time.perf_counter() - start)

        start = time.perf_counter()
        actions = server.request("textDocument/codeAction", {
            "textDocument": {"uri": URI}, "range": finding["range"],
            "context": {"diagnostics": [finding]},
        })
        quick.append(time.perf_counter() - start)
        (fix_all,) = [a for a in actions if a["kind"] == "source.fixAll.nnsight-lint"]

        if n % 5 == 0:  # fixing is slow: sample it less often
            start = time.perf_counter()
            assert server.request("codeAction/resolve", fix_all)["edit"]
            resolve.append(time.perf_counter() - start)

        start = time.perf_counter()
        first = version + 1
        for _ in range(5):
            version += 1
            edited += f"# {version}\n"
            server.change(edited, version)
        seen = [server.diagnostics()["version"]]
        while seen[-1] != version:
            seen.append(server.diagnostics()["version"])
        burst.append(time.perf_counter() - start)
        published.append(sum(1 for v in seen if v >= first))
    server.stop()

    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"file: {text.count(chr(10))} lines, 20 traces; {args.edits} edits")
    print("| measure | median ms |")
    print("|---|---:|")
    print(f"| engine alone, whole file (lint_text) | {median_ms(engine)} |")
    print(f"| engine alone, an edited trace (incremental) | {median_ms(incremental)} |")
    print(f"| edit -> diagnostics, function without a trace | {median_ms(edit)} |")
    print(f"| edit -> diagnostics, inside a trace | {median_ms(edit_trace)} |")
    print(f"| quick-fix code action | {median_ms(quick)} |")
    print(f"| fix-all resolve | {median_ms(resolve)} |")
    print(f"| burst of 5 changes -> last diagnostics | {median_ms(burst)} |")
    print(f"versions published per burst of 5: median {statistics.median(published)}, max {max(published)}")


if __name__ == "__main__":
    main()
