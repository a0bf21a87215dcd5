"""The project's other files a resolution follows: a module an import names (`mypkg.models`,
`.models`, under `src/` too) and the `conftest.py` files above a file, each parsed once per process
(by path, size and mtime), bounded in size and number."""
from __future__ import annotations

import os
from typing import Dict, Iterator, Optional, Tuple

import libcst as cst

from nnsight_lint.analysis.bindings import Index
from nnsight_lint.sources import reads

_MAX_FILE = 512 * 1024  # a sibling module larger than this is not read
_FILES: Dict[str, Tuple[tuple, Optional[Index]]] = {}
_MAX_FILES = 128


def index_of_file(path: str) -> Optional[Index]:
    """The bindings of another file of the project, parsed once per process (by size and mtime).
    The lint being run hears of the read (`sources/reads.py`), from this process's table too."""
    try:
        status = os.stat(path)
    except OSError:
        reads.note(path)
        return None
    reads.note(path, status)
    key = (status.st_size, status.st_mtime_ns)
    cached = _FILES.get(path)
    if cached is not None and cached[0] == key:
        return cached[1]
    index = None
    if status.st_size <= _MAX_FILE:
        try:
            with open(path, "rb") as handle:
                index = Index(cst.parse_module(handle.read()), path)
        except (OSError, cst.ParserSyntaxError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            index = None
    if len(_FILES) >= _MAX_FILES:
        _FILES.clear()
    _FILES[path] = (key, index)
    return index


def _project_root(directory: str) -> str:
    """The nearest directory above (or at) `directory` that holds project markers, else `directory`."""
    current = directory
    for _ in range(8):
        if any(os.path.exists(os.path.join(current, marker)) for marker in ("pyproject.toml", "setup.cfg", "setup.py", ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return directory


def module_file(index: Index, module: str, level: int) -> Optional[str]:
    """The project file an import names (`mypkg.models`, `.models`), or None (not the project's)."""
    if index.path is None or not os.path.isfile(index.path):
        return None
    here = os.path.dirname(os.path.abspath(index.path))
    parts = [p for p in module.split(".") if p]
    if level:
        base = here
        for _ in range(level - 1):
            base = os.path.dirname(base)
        bases = [base]
    else:
        root = _project_root(here)
        bases, current = [], here
        while True:
            bases.append(current)
            if current == root or os.path.dirname(current) == current:
                break
            current = os.path.dirname(current)
        bases.append(os.path.join(root, "src"))
    for base in bases:
        target = os.path.join(base, *parts)
        for candidate in (target + ".py", os.path.join(target, "__init__.py")):
            if parts:
                if os.path.isfile(candidate):
                    return candidate
                reads.note(candidate)  # not there: one that appears later is what the import means
    return None


def conftests(index: Index) -> Iterator[Index]:
    """The `conftest.py` files whose fixtures the linted file can use, nearest first."""
    if index.path is None or not os.path.isfile(index.path):
        return
    here = os.path.dirname(os.path.abspath(index.path))
    root = _project_root(here)
    current = here
    for _ in range(8):
        candidate = os.path.join(current, "conftest.py")
        if os.path.abspath(candidate) != os.path.abspath(index.path):
            found = index_of_file(candidate)  # heard of as read, or looked for and not there
            if found is not None:
                yield found
        if current == root or os.path.dirname(current) == current:
            return
        current = os.path.dirname(current)
