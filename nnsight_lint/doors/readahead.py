"""The language server's input, read ahead by a thread: the server can tell whether the editor has
sent more than it has handled (a change that supersedes the version about to be linted), instead
of waiting a fixed time to find out.

The thread also frames the messages, so one malformed frame never leaves the server deaf: header
names in any case, lines ended by LF or CRLF; a length that is missing, negative or not a number
drops that header and the input is resynchronised on the next `Content-Length` header; a length
that does not fit its body (counted in characters rather than bytes, say) is recovered when the
JSON object ends where the next header starts, and dropped otherwise. Each message reaches pygls
as a canonical frame, `Content-Length: N\\r\\n\\r\\n` and its N bytes; what was dropped is said on
stderr, which editors show as the server's log.
"""
from __future__ import annotations

import json
import os
import re
import sys
import threading
from typing import BinaryIO, Callable, Optional

_HEADERS = re.compile(rb"\A((?:[ \t]*[A-Za-z][\w-]*[ \t]*:[^\r\n]*\r?\n)+)\r?\n")  # a whole header block
_HEADER_PREFIX = re.compile(rb"\A(?:[ \t]*[A-Za-z][\w-]*[ \t]*:[^\r\n]*\r?\n)*(?:[ \t]*[A-Za-z][\w-]*[ \t]*(?::[^\r\n]*)?)?\r?\Z")
_LENGTH = re.compile(rb"^[ \t]*content-length[ \t]*:[ \t]*([^\r\n]*?)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_NEXT_HEADER = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)  # a header follows a body unseparated
_FOLLOWS = re.compile(rb"\A\s*(?:content-length|content-type)[ \t]*:", re.IGNORECASE)
_MAX_HEADER = 8192


def _log(text: str) -> None:
    try:
        print(f"nnsight-lint: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _json(data: bytes) -> bool:
    try:
        return isinstance(json.loads(data), (dict, list))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False


class Framer:
    """Turns the bytes an editor sent into canonical frames; `feed` returns the frames complete so far."""

    def __init__(self, log: Callable[[str], None] = _log) -> None:
        self._raw = bytearray()
        self._log = log

    def pending(self) -> bool:
        return bool(self._raw.strip())

    def feed(self, data: bytes, ended: bool = False) -> list:
        self._raw += data
        frames = []
        while True:
            body = self._next(ended)
            if body is None:
                break
            frames.append(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        return frames

    def _skip_to_next_header(self, start: int, why: str) -> bool:
        """Drop input up to the next `Content-Length` header at or after `start`; False when none
        has arrived yet (then all but what may be the start of one is dropped)."""
        found = _NEXT_HEADER.search(self._raw, start)
        if found is None:
            dropped = max(len(self._raw) - 64, 0)
        else:
            dropped = found.start()
        if dropped:
            self._log(f"skipped {dropped} bytes of input that were not a message ({why})")
            del self._raw[:dropped]
        return found is not None


    def _next(self, ended: bool) -> Optional[bytes]:
        """The next message's body, or None when none is complete yet."""
        raw = self._raw
        while True:
            blank = len(raw) - len(raw.lstrip())
            if blank:
                del raw[:blank]
            if not raw:
                return None
            headers = _HEADERS.match(raw)
            if headers is None:
                if _HEADER_PREFIX.match(raw) and len(raw) < _MAX_HEADER and not ended:
                    return None  # the header block is still arriving
                if not self._skip_to_next_header(1, "no header"):
                    return None
                continue
            lengths = _LENGTH.findall(headers.group(1))
            value = lengths[-1] if lengths else b""
            if not value.isdigit():
                why = f"Content-Length {value.decode('latin-1')!r} is not a length" if lengths else "no Content-Length header"
                if not self._skip_to_next_header(headers.end(), why):
                    return None
                continue
            start = headers.end()
            end = start + int(value)
            if len(raw) >= end:
                rest = raw[end : end + 64]
                if not rest.strip() or _FOLLOWS.match(rest):  # the body ends where its length says
                    body = bytes(raw[start:end])
                    del raw[:end]
                    return body
            # More of the body follows its length (a length counted in characters, say), or the
            # body is still arriving, or its length runs into the next message.
            after = start
            for stop in [m.start() for m in _NEXT_HEADER.finditer(raw, after)]:  # the JSON value ends
                if _json(bytes(raw[start:stop])):  # where a header starts
                    return self._recovered(start, stop)
            if len(raw) < end and not ended:
                return None  # still arriving, as its length says
            if _json(bytes(raw[start:])):
                return self._recovered(start, len(raw))
            if not ended and _NEXT_HEADER.search(raw, after) is None:
                return None  # the rest of it may be arriving
            self._log("dropped a message whose Content-Length did not match its body")
            if not self._skip_to_next_header(after, "the rest of that message"):
                del raw[:]
                return None

    def _recovered(self, start: int, stop: int) -> bytes:
        self._log("a message's Content-Length did not match its body; it was read up to where the next header starts")
        body = bytes(self._raw[start:stop]).strip()
        del self._raw[:stop]
        return body


class ReadAhead:
    """A binary stream for pygls (`readline`, `read`), filled by a thread as fast as data comes."""

    _CHUNK = 1 << 16

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._buffer = bytearray()  # canonical frames, for pygls
        self._framer = Framer()
        self._partial = False  # the framer holds part of a message
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
            frames = self._framer.feed(chunk, ended=not chunk)
            with self._arrived:
                for frame in frames:
                    self._buffer += frame
                self._partial = self._framer.pending()
                if not chunk:
                    self._ended = True
                self._arrived.notify_all()
            if not chunk:
                return

    def waiting(self) -> bool:
        """Has the editor sent something the server has not handled yet?"""
        with self._arrived:
            return bool(self._buffer) or self._partial or self._bodies_read > self._handled

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
