"""Python's garbage collector held off while one document is linted.

A lint allocates hundreds of thousands of container objects (libcst's nodes, the analysis model)
that all stay alive until it ends, and each automatic collection scans them again only to find
them alive: that is about an eighth of a lint's time (`benchmarks/phases.py`). So no collection
runs while a document is linted. The tree and the model are freed by reference counting when the
lint lets go of them (the model drops its cycles, `FileModel.release`); what little is left in
cycles goes in the first automatic collection once the collector is on again, and between the
pieces of a huge file (`between_pieces`), so memory stays bounded by one piece.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection while the block runs. A collector someone else turned off stays
    off (and a pause inside a pause changes nothing)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def between_pieces() -> None:
    """Free what the last piece of a file left in cycles: everything allocated since the pause is
    in the youngest generation, and little of it is still alive."""
    if not gc.isenabled():
        gc.collect(0)
