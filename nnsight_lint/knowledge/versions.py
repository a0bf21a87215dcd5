"""Which nnsight a project is written for, as version facts: the versions the rules know, how a
`target-version` is written, and what a declared requirement means for the target. Where the
requirement is declared is read by `nnsight_lint.sources.requirements`.

The same code is right for one nnsight and wrong for another (`.value` after a trace is the 0.4
API, a NameError-free `None` in 0.8), so rules state the versions they apply to.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Tuple

Version = Tuple[int, int]
NEWEST: Version = (0, 8)  # the newest nnsight API the rules describe
OLDEST: Version = (0, 1)  # the first nnsight release: no code is written for an older one
LEGACY_UNTIL: Version = (0, 4)  # the last release of the proxy API (`.value`, `model.trace(...).output`)

_VERSION = re.compile(r"^\s*(\d+)\.(\d+)(?:\.\d+)?\s*$")
_LEADING = re.compile(r"^\s*(\d+)(?:\.(\d+))?")


class VersionError(ValueError):
    pass


def parse(text: str) -> Version:
    """"0.4" or "0.8.1" -> (0, 4) / (0, 8)."""
    match = _VERSION.match(str(text))
    if match is None:
        raise VersionError(f"not a version: {text!r} (expected MAJOR.MINOR, e.g. \"0.8\")")
    return int(match.group(1)), int(match.group(2))


def parse_target(text: str) -> Version:
    """A `target-version` as written by the user: `parse`, refusing versions no nnsight had ("0.0")."""
    version = parse(text)
    if version < OLDEST:
        raise VersionError(f"no nnsight release is {text.strip()!r} (the first is {show(OLDEST)})")
    return version


def leading(text: str) -> Optional[Version]:
    """MAJOR.MINOR of any release text ("0.6.2", "0.5.0.dev3", "1"), None if it has none."""
    match = _LEADING.match(str(text))
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def show(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


@dataclass(frozen=True)
class Target:
    version: Version = NEWEST
    source: str = "default: the newest nnsight API"
    pinned: bool = True  # False: no versioned requirement decided (the project does not pin nnsight)
    project: Optional[str] = None  # the directory whose files decided (or declare no nnsight); None: none


# How a requirement's specifiers aim at a version, as --show-settings says it.
HOW = {
    "pinned": "",
    "bounded": "a bounded range: its floor",
    "open-ended": "open-ended: its floor",
    "below": "the newest below its upper bound",
    "locked": "the lockfile's version",
}
