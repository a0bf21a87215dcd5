"""The language server's input, read ahead by a thread: the server can tell whether the editor has
sent more than it has handled (a change that supersedes the version about to be linted), instead
of waiting a fixed time to find out."""
from __future__ import annotations

import os
import threading
from typing import BinaryIO


class ReadAhead:
    """A binary stream for pygls (`readline`, `read`), filled by a thread as fast as data comes."""

    _CHUNK = 1 << 16

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._buffer = bytearray()
        self._ended = False
        self._arrived = threading.Condition()
        self._bodies_read = 0  # messages handed to the server (a body is read with `read`) ...
        self._handled = 0  # ... and those it has handled
        threading.Thread(target=self._fill, name="nnsight-lint-input", daemon=True).start()

    def _fill(self) -> None:
        try:  # the file descriptor itself: a thread blocked in a buffered stream's read holds its
            # lock, and Python aborts at exit when a daemon thread holds a stream's lock
            descriptor = self._stream.fileno()
            read = lambda size: os.read(descriptor, size)  # noqa: E731
        except (AttributeError, OSError, ValueError):
            read = getattr(self._stream, "read1", self._stream.read)
        while True:
            try:
                chunk = read(self._CHUNK)
            except (OSError, ValueError):
                chunk = b""
            with self._arrived:
                if not chunk:
                    self._ended = True
                else:
                    self._buffer += chunk
                self._arrived.notify_all()
            if not chunk:
                return

    def waiting(self) -> bool:
        """Has the editor sent something the server has not handled yet?"""
        with self._arrived:
            return bool(self._buffer) or self._bodies_read > self._handled

    def handled_all(self) -> None:
        """The server has handled a message: messages are handled in order, so every one read so
        far has been (one it could not decode too)."""
        with self._arrived:
            self._handled = self._bodies_read

    def readline(self) -> bytes:
        with self._arrived:
            self._arrived.wait_for(lambda: b"\n" in self._buffer or self._ended)
            end = self._buffer.find(b"\n") + 1 or len(self._buffer)
            return self._take(end)

    def read(self, size: int) -> bytes:
        with self._arrived:
            self._arrived.wait_for(lambda: len(self._buffer) >= size or self._ended)
            self._bodies_read += 1
            return self._take(min(size, len(self._buffer)))

    def _take(self, size: int) -> bytes:
        taken = bytes(self._buffer[:size])
        del self._buffer[:size]
        return taken
