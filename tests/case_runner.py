"""Execute one rule case as a program: the shared tiny model bound to the free name `model`.

nnsight reads a `with` block's source back by file name to run it, so a case runs from its real
path, and rewritten source runs under a synthetic name registered in `linecache`.
"""
from __future__ import annotations

import linecache
import warnings
from pathlib import Path


def run_case(path: Path, model, source: str | None = None, namespace: dict | None = None) -> None:
    """Run the case at `path` (or `source`, a rewrite of it) in a fresh `__main__` namespace (or in
    `namespace`, which then holds what the program bound)."""
    filename = str(path)
    if source is None:
        source = path.read_text()
    else:
        # A distinct name per distinct text: nnsight caches a file's source forever.
        filename = f"<{path.stem}:rewritten:{hash(source):x}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(source, filename, "exec")
    namespace = {} if namespace is None else namespace
    namespace.update({"__name__": "__main__", "__file__": filename, "model": model})
    exec(code, namespace)


def raised_by(path: Path, model) -> BaseException:
    """The error the case at `path` raises when run (its warnings silenced); AssertionError if none."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            run_case(path, model)
        except BaseException as error:  # noqa: BLE001
            return error
    raise AssertionError(f"{path.name} ran clean")
