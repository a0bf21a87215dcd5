"""What each nnsight minor release offers its users: modules, names, members of the objects users
touch, and keyword arguments. Generated from the releases by `scripts/gen_api_table.py` into
`nnsight_api.json` (stdlib only; loaded once per process, on first question).

Every entry is a set of ranges "ADDED:REMOVED" over minor versions ("0.5:0.8": there in 0.5 up to
0.7, gone in 0.8; an empty end: before the first recorded release, or still there).
"""
from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Optional, Tuple

Version = Tuple[int, int]
_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nnsight_api.json")


@functools.lru_cache(maxsize=None)  # a table has a handful of distinct versions, asked per use
def _version(text: str) -> Version:
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def _show(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


@functools.lru_cache(maxsize=1)
def table() -> Dict[str, object]:
    with open(_PATH, encoding="utf-8") as handle:
        return json.load(handle)


def present(ranges: str, minor: str) -> bool:
    """Is a thing with these ranges there in `minor` ("0.8")?"""
    version = _version(minor)
    for span in ranges.split(","):
        added, _, removed = span.partition(":")
        if (not added or _version(added) <= version) and (not removed or version < _version(removed)):
            return True
    return False


def releases() -> Dict[str, str]:
    """minor -> the release recorded for it: {"0.2": "0.2.21", ...}."""
    return table()["releases"]


@dataclass(frozen=True)
class Change:
    """A name the target lacks: `removed` in that version (the last removal at or before the target),
    or `added` only in a later one. `release` is the target's recorded release ("0.5.15")."""

    name: str
    removed: Optional[Version] = None
    added: Optional[Version] = None
    release: str = ""

    @property
    def removed_text(self) -> str:
        return _show(self.removed) if self.removed else ""

    @property
    def added_text(self) -> str:
        return _show(self.added) if self.added else ""


def _recorded_range(minors: List[str]) -> Tuple[Version, Version]:
    versions = sorted(_version(m) for m in minors)
    return versions[0], versions[-1]


def _change(name: str, ranges: Optional[str], target: Version, recorded: List[str]) -> Optional[Change]:
    """None when `name` is there in `target`, or unknown to the table (not nnsight's, or `target`
    outside the recorded releases)."""
    if ranges is None or not recorded:
        return None
    first, last = _recorded_range(recorded)
    target = min(target, last)  # a newer nnsight than recorded: its newest known API
    if target < first or _show(target) not in recorded:
        return None
    if present(ranges, _show(target)):
        return None
    spans = [span.partition(":")[::2] for span in ranges.split(",")]
    removed = [_version(r) for _, r in spans if r and _version(r) <= target]
    added = [_version(a) for a, _ in spans if a and _version(a) > target]
    release = releases().get(_show(target), "")
    if removed:
        return Change(name, removed=max(removed), release=release)
    return Change(name, added=min(added), release=release) if added else None


@functools.lru_cache(maxsize=4096)  # asked per use; a file asks few distinct questions
def module_change(module: str, target: Version) -> Optional[Change]:
    """`import <module>` / `from <module> import ...` on `target`: an nnsight module it lacks."""
    return _change(module, table()["modules"].get(module), target, list(releases()))


@functools.lru_cache(maxsize=4096)  # asked per use; a file asks few distinct questions
def name_change(qualified: str, target: Version) -> Optional[Change]:
    """`nnsight.<...>.<name>` (from an import or an attribute of an imported module)."""
    data = table()
    if qualified in data["modules"]:
        return module_change(qualified, target)
    return _change(qualified, data["names"].get(qualified), target, list(releases()))


@functools.lru_cache(maxsize=4096)  # asked per use; a file asks few distinct questions
def member_change(role: str, name: str, target: Version) -> Optional[Change]:
    """`<object>.<name>` where the object is the model wrapper, an Envoy, the tracer, ... (`roles`)."""
    data = table()
    return _change(name, data["members"].get(role, {}).get(name), target, data["recorded"].get(role, []))


@functools.lru_cache(maxsize=None)
def lacked_members(target: Version) -> FrozenSet[str]:
    """The member names `member_change` answers for some role on `target`: a use of any other
    member is there in the target (or unknown to the table), whatever its receiver."""
    data = table()
    return frozenset(name for role, members in data["members"].items() for name in members
                     if member_change(role, name, target) is not None)


def block_change(block: str, target: Version) -> Optional[Change]:
    """A block a trace body opens (`"backward"`: `with loss.backward():`) that `target` cannot open."""
    data = table().get("blocks")
    return None if data is None else _change(block, data["names"].get(block), target, data["recorded"])


_TRACING_CALLS = ("trace", "generate", "scan", "tracer")  # hand `**kwargs` to one another


@functools.lru_cache(maxsize=4096)  # asked per use; a file asks few distinct questions
def keyword_change(call: str, keyword: str, target: Version) -> Optional[Change]:
    """`model.trace(..., <keyword>=...)` and the like: a keyword the target's `call` does not take.
    `trace`, `generate` and `scan` pass `**kwargs` on to each other and to the tracer, so for them
    a keyword any of these takes in the target is taken."""
    calls = table()["keywords"]
    if call not in calls:
        return None
    family = _TRACING_CALLS if call in _TRACING_CALLS else (call,)
    changes = [_change(keyword, calls[c]["params"].get(keyword), target, calls[c]["recorded"])
               for c in family if c in calls]
    known = [c for c in family if c in calls and keyword in calls[c]["params"]]
    if not known or any(calls[c]["params"][keyword] and present(calls[c]["params"][keyword], _show(min(target, _newest())))
                        for c in known):
        return None
    found = [c for c in changes if c is not None]
    return found[0] if found else None


def _newest() -> Version:
    return max(_version(m) for m in releases())


def removals() -> List[Tuple[str, str, str]]:
    """(kind, what, ranges) of what users meet that the table records as removed or added after the
    first release, for the docs: packages (`nnsight.contexts`), `nnsight.<name>`, the public members
    of the model, an Envoy, the tracer, invoker and a module's output or saved value, the keywords
    of `trace`, `generate`, `scan`, `session`, `invoke` and `LanguageModel(...)`. (The whole table
    has more: every submodule, the session's and the internal constructors'.)"""
    data = table()
    rows: List[Tuple[str, str, str]] = []
    changed = lambda ranges: ranges != ":"  # noqa: E731
    for name, ranges in sorted(data["modules"].items()):
        if changed(ranges) and name.count(".") <= 1:
            rows.append(("module", name, ranges))
    for name, ranges in sorted(data["names"].items()):
        if changed(ranges) and not any(part.startswith("_") for part in name.split(".")) \
                and name.rpartition(".")[0] == "nnsight":
            rows.append(("name", name, ranges))
    for role, members in sorted(data["members"].items()):
        if role in ("generator", "session"):  # the generator is the tracer's class
            continue
        for name, ranges in sorted(members.items()):
            if changed(ranges) and (not name.startswith("_") or name in ("_model", "_module")):
                rows.append((f"member of {role}", name, ranges))
    for name, ranges in sorted(data.get("blocks", {}).get("names", {}).items()):
        rows.append(("block in a trace", f"with loss.{name}():", ranges))
    for call, entry in sorted(data["keywords"].items()):
        if call == "tracer":
            continue
        for name, ranges in sorted(entry["params"].items()):
            if changed(ranges):
                rows.append((f"keyword of {call}", name, ranges))
    return rows


def roles() -> Dict[str, Dict[str, Optional[str]]]:
    """role -> minor -> the class of that object in that release."""
    return table()["classes"]
