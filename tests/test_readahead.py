"""The language server's read-ahead input, on a real pipe: it gives pygls the bytes in order, and
says whether the editor has sent something the server has not handled yet."""
from __future__ import annotations

import os
import time

from nnsight_lint.doors.readahead import ReadAhead


def _message(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _eventually(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.001)
    return False


def test_messages_come_out_as_sent_and_waiting_says_what_is_left():
    reading, writing = os.pipe()
    given = ReadAhead(os.fdopen(reading, "rb"))
    assert not given.waiting()
    os.write(writing, _message(b'{"n": 1}') + _message(b'{"n": 2}'))
    assert _eventually(given.waiting)

    assert given.readline() == b"Content-Length: 8\r\n"
    assert given.readline() == b"\r\n"
    assert given.read(8) == b'{"n": 1}'
    given.handled_all()
    assert given.waiting()  # the second message is there, unread

    given.readline(), given.readline()
    assert given.read(8) == b'{"n": 2}'
    assert given.waiting()  # read, not handled yet: it may be a newer version
    given.handled_all()
    assert not given.waiting()
    os.close(writing)


def test_the_end_of_the_input_ends_reading():
    reading, writing = os.pipe()
    given = ReadAhead(os.fdopen(reading, "rb"))
    os.write(writing, _message(b'{"n": 1}') + b"Content-Length: 40\r\n\r\n{\"partial")
    os.close(writing)
    assert given.readline() == b"Content-Length: 8\r\n"
    given.readline()
    assert given.read(8) == b'{"n": 1}'
    assert given.readline() == b""  # what is left is no whole message: it is dropped, and said so
    assert given.read(10) == b""
