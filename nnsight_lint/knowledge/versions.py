"""Which nnsight a project is written for: the `target-version` setting, or, when absent, the
nnsight requirement the project declares (pyproject.toml, requirements*.txt, setup.cfg,
setup.py), as ruff infers a Python target from `requires-python`.

The same code is right for one nnsight and wrong for another (`.value` after a trace is the 0.4
API, a NameError-free `None` in 0.8), so rules state the versions they apply to.
"""
from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass
from typing import Iterator, Optional, Tuple

Version = Tuple[int, int]
NEWEST: Version = (0, 8)  # the newest nnsight API the rules describe

_VERSION = re.compile(r"^\s*(\d+)\.(\d+)(?:\.\d+)?\s*$")
# `nnsight`, optionally with extras, then its specifiers up to a marker, comment or end of line.
_REQUIREMENT = re.compile(r"""(?<![\w.-])nnsight(?![\w-])(?:\[[^\]]*\])?\s*(?P<spec>[<>=!~][^;#"'\n,]*(?:,[^;#"'\n]*)?)?""", re.I)
_SPECIFIER = re.compile(r"(?P<op>~=|==|>=|<=|!=|>|<)\s*(?P<version>\d+(?:\.\d+)*)")


class VersionError(ValueError):
    pass


def parse(text: str) -> Version:
    """"0.4" or "0.8.1" -> (0, 4) / (0, 8)."""
    match = _VERSION.match(str(text))
    if match is None:
        raise VersionError(f"not a version: {text!r} (expected MAJOR.MINOR, e.g. \"0.8\")")
    return int(match.group(1)), int(match.group(2))


def show(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


@dataclass(frozen=True)
class Target:
    version: Version = NEWEST
    source: str = "default: the newest nnsight API"


def from_requirement(spec: str) -> Tuple[Optional[Version], str]:
    """The version a requirement's specifiers aim at, and a note: `==0.4.3` -> 0.4; `>=0.2.9` -> its
    floor 0.2 (open-ended); `<0.5` -> 0.4; none -> None (the newest)."""
    floor: Optional[Version] = None
    below: Optional[Version] = None
    for match in _SPECIFIER.finditer(spec or ""):
        op, parts = match.group("op"), [int(p) for p in match.group("version").split(".")] + [0]
        version = (parts[0], parts[1])
        if op in ("==", "~=", ">=", ">"):
            floor = version if floor is None else max(floor, version)
        elif op in ("<", "<="):
            if op == "<" and parts[1] > 0 and not any(parts[2:]):
                version = (parts[0], parts[1] - 1)
            below = version if below is None else min(below, version)
    if floor is not None:
        exact = re.search(r"(==|~=)\s*\d", spec or "") is not None
        return floor, "" if exact or below is not None else "open-ended: its floor"
    if below is not None:
        return below, "the newest below its upper bound"
    return None, ""


def _declarations(root: str) -> Iterator[Tuple[str, str]]:
    """(file, text) of the files that may declare the project's requirements."""
    names = ["pyproject.toml", "setup.cfg", "setup.py"]
    names += sorted(glob.glob(os.path.join(root, "requirements*.txt")))
    names += sorted(glob.glob(os.path.join(root, "requirements", "*.txt")))
    for name in names:
        path = os.path.join(root, name)
        try:
            with open(path, "rb") as handle:
                data = handle.read(1_000_000)
        except OSError:
            continue
        text = data.decode("utf-8", "replace")
        if "nnsight" in text.lower():
            yield path, text


def _requirements(path: str, text: str) -> Iterator[str]:
    """The specifier text of each nnsight requirement a file declares ("" when unversioned)."""
    if path.endswith((".txt", ".cfg")):  # one requirement a line: `nnsight>=0.4`, `  nnsight==0.2.21`
        candidates = (line.strip() for line in text.splitlines())
    else:  # pyproject.toml, setup.py: quoted requirement strings, or poetry's `nnsight = "^0.4"`
        candidates = re.findall(r"""["'](nnsight[^"'\n]*)["']""", text)
        candidates += [f"nnsight{_poetry(spec)}" for spec in re.findall(r"""(?m)^\s*nnsight\s*=\s*["']([^"']*)["']""", text)]
    for candidate in candidates:
        match = _REQUIREMENT.match(candidate)
        if match is not None:
            yield (match.group("spec") or "").strip()


def _poetry(spec: str) -> str:
    """Poetry's `^0.4.2` / `~0.4` mean `>=0.4.2,<0.5`: the floor decides."""
    spec = spec.strip()
    return ">=" + spec[1:] if spec[:1] in "^~" and spec[1:2].isdigit() else ("==" + spec if spec[:1].isdigit() else spec)


def infer(start: str) -> Target:
    """The target declared by the nearest directory at or above `start` that declares nnsight."""
    directory = os.path.abspath(start)
    if not os.path.isdir(directory):
        directory = os.path.dirname(directory)
    while True:
        found = [(path, spec) for path, text in _declarations(directory) for spec in _requirements(path, text)]
        # A versioned requirement wins over a bare name (a keyword list, an unpinned extra).
        for path, spec in sorted(found, key=lambda item: not item[1]):
            version, note = from_requirement(spec)
            declared = f"{path}: nnsight{spec}"
            if version is None:
                return Target(NEWEST, f"{declared} (no version: the newest API)")
            return Target(version, declared + (f" ({note})" if note else ""))
        parent = os.path.dirname(directory)
        if parent == directory:
            return Target()
        directory = parent
