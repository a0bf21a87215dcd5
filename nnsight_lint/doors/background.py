"""The language server's lint of a large document, in a process of its own, so the server keeps
answering (other documents, hover, code actions) while it runs, and the document's parse never
grows the server's memory: the child checks it in pieces (`slicing.pieces`) and exits.

One child per document at a time; a version that arrives meanwhile is linted when it ends (the
versions in between are never linted); closing the document or stopping the server kills it.
"""
from __future__ import annotations

import pickle
import subprocess
import sys
import threading
from typing import Callable, Dict, Optional, Tuple

_CHILD = "from nnsight_lint.doors.background import child; child()"


def child() -> None:
    """The child's side: a pickled (path, texts, notebook, cell, options) in, (findings, error) out."""
    from nnsight_lint.sources import source

    path, texts, notebook, cell, options = pickle.load(sys.stdin.buffer)
    document = source.Cells(path, texts) if notebook else source.for_editor(texts[0], path, cell=cell)
    result = source.checked(document, options)
    sys.stdout.buffer.write(pickle.dumps(result))
    sys.stdout.buffer.flush()


class Linter:
    """Runs lints in child processes; `done(key, job, result)` is called on the thread that asked
    (through `schedule`, e.g. the event loop's `call_soon_threadsafe`)."""

    def __init__(self, schedule: Callable[[Callable[[], None]], None]) -> None:
        self._schedule = schedule
        self._lock = threading.Lock()
        self._running: Dict[str, Tuple[tuple, subprocess.Popen]] = {}
        self._next: Dict[str, Tuple[tuple, Callable]] = {}

    def busy(self, key: str) -> bool:
        with self._lock:
            return key in self._running

    def submit(self, key: str, job: tuple, done: Callable[[str, tuple, Tuple[list, Optional[str]]], None]) -> None:
        """Lint `job` (path, texts, notebook, cell, options) for `key`, or after the running one."""
        with self._lock:
            running = self._running.get(key)
            if running is not None:
                if running[0] != job:
                    self._next[key] = (job, done)
                return
            process = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL)
            self._running[key] = (job, process)
        threading.Thread(target=self._wait, args=(key, job, process, done), name="nnsight-lint-large", daemon=True).start()

    def _wait(self, key: str, job: tuple, process: subprocess.Popen, done) -> None:
        try:
            output, _ = process.communicate(pickle.dumps(job))
            result = pickle.loads(output) if process.returncode == 0 else ([], _died(process.returncode))
        except Exception as error:  # noqa: BLE001  (a broken pipe, a killed child)
            result = ([], f"internal error while linting in the background: {type(error).__name__}: {error}")
        with self._lock:
            if self._running.get(key, (None, None))[1] is not process:
                return  # cancelled
            del self._running[key]
            following = self._next.pop(key, None)
        self._schedule(lambda: done(key, job, result))
        if following is not None:
            self.submit(key, *following)

    def cancel(self, key: str) -> None:
        with self._lock:
            running = self._running.pop(key, None)
            self._next.pop(key, None)
        if running is not None:
            _kill(running[1])

    def stop(self) -> None:
        with self._lock:
            running = list(self._running.values())
            self._running.clear()
            self._next.clear()
        for _, process in running:
            _kill(process)


def _kill(process: subprocess.Popen) -> None:
    try:
        process.kill()
    except OSError:
        pass


def _died(code: int) -> str:
    how = f"was killed by signal {-code}" if code < 0 else f"exited with {code}"
    return f"internal error: the background lint of this document {how}"
