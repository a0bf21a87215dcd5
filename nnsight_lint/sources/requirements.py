"""What a project declares it needs: the requirements of one package (`nnsight`, `transformers`)
read from the files a project declares its dependencies in, each with the file and line that
said it. Generic over the package name.

Read (commented-out lines never are): `pyproject.toml` (PEP 621 dependencies and optional
dependencies, PEP 735 dependency groups, `[tool.uv]` dev/override/constraint dependencies and
`[tool.uv.sources]`, poetry's dependency tables with `^`/`~`, `[tool.pdm]` dev dependencies),
`setup.cfg`, the literal lists of `setup.py`, `requirements*.txt` / `requirements*.in` /
`requirements/*.txt` with their `-r` / `-c` includes, `environment.yml` (conda and pip sections),
`Pipfile`, and the lockfiles `uv.lock`, `poetry.lock`, `pdm.lock`, `Pipfile.lock`.

Requirements are parsed with `packaging`, TOML with `tomllib` (or `tomli`). Nothing is imported
from the package itself: the installed version comes from its distribution's metadata.
"""
from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

# Strength of a declaration, strongest first: an exact pin, a lockfile's version, a range, a name.
PINNED, LOCKED, RANGE, UNVERSIONED = 3, 2, 1, 0

LOCKFILES = ("uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock")
_PLAIN_FILES = ("pyproject.toml", "setup.cfg", "setup.py", "Pipfile", "environment.yml", "environment.yaml")
_REQUIREMENTS_FILE = re.compile(r"^requirements.*\.(?:txt|in)$")
_INCLUDE_DEPTH = 8


class RequirementsError(Exception):
    """Requirements cannot be read at all (the `packaging` package is missing)."""


@dataclass(frozen=True)
class Declared:
    """One requirement of the package: `specifier` is PEP 440 text ("" for none)."""

    package: str
    specifier: str
    path: str
    line: int
    text: str  # as the file says it, for --show-settings
    url: bool = False  # a git / URL / path requirement: no version
    locked: bool = False  # a lockfile's resolved version

    @property
    def strength(self) -> int:
        if self.locked:
            return LOCKED
        if not self.specifier:
            return UNVERSIONED
        return PINNED if aimed_at(self.specifier)[1] == "pinned" else RANGE

    def where(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _packaging():
    try:
        from packaging.requirements import InvalidRequirement, Requirement
        from packaging.specifiers import InvalidSpecifier, SpecifierSet
        from packaging.version import InvalidVersion, Version
    except ImportError:
        raise RequirementsError(
            "reading the project's requirements needs the `packaging` package (`pip install packaging`)"
        ) from None
    return Requirement, InvalidRequirement, SpecifierSet, InvalidSpecifier, Version, InvalidVersion


# --- what a specifier aims at ------------------------------------------------------------------


def aimed_at(specifier: str) -> Tuple[Optional[str], str]:
    """The version a specifier set aims at, and how: `==0.4.3` -> ("0.4.3", "pinned"); `~=0.4.1`
    and `>=0.4,<0.5` -> the floor ("bounded"); `>=0.2.9` -> its floor ("open-ended"); `<0.5` ->
    ("0.4", "below"); nothing usable -> (None, "")."""
    _, _, SpecifierSet, InvalidSpecifier, Version, InvalidVersion = _packaging()
    try:
        specifiers = SpecifierSet(specifier)
    except InvalidSpecifier:
        return None, ""
    floor: Optional[Any] = None
    upper: Optional[Tuple[str, Any]] = None
    bounded = False
    for spec in specifiers:
        op, text = spec.operator, spec.version
        if op in ("==", "==="):
            return text[:-2] if text.endswith(".*") else text, "pinned"
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        if op in ("~=", ">=", ">"):
            bounded = bounded or op == "~="
            floor = version if floor is None else max(floor, version)
        elif op in ("<", "<="):
            if upper is None or version < upper[1]:
                upper = (op, version)
    if floor is not None:
        return str(floor), "bounded" if bounded or upper is not None else "open-ended"
    if upper is not None:
        op, version = upper
        release = list(version.release) + [0]
        if op == "<=":
            return str(version), "below"
        if release[1] > 0 and not any(release[2:]):
            return f"{release[0]}.{release[1] - 1}", "below"
        if len(version.release) >= 2 and any(release[2:]):
            return f"{release[0]}.{release[1]}", "below"
        return None, "below"
    return None, ""


def poetry_specifier(text: str) -> str:
    """Poetry's constraint syntax as PEP 440: `^0.5` -> `>=0.5,<0.6`, `~0.4.2` -> `>=0.4.2,<0.5`,
    `0.4.3` -> `==0.4.3`, `*` -> ``; anything else (`>=0.4,<0.5`) as it is."""
    text = text.split("||")[0].strip()
    if text in ("", "*"):
        return ""
    out = []
    for part in re.split(r"\s*,\s*|\s+(?=[<>=!~^])", text):
        out.append(_poetry_part(part.strip()))
    return ",".join(p for p in out if p)


def _poetry_part(part: str) -> str:
    match = re.match(r"^([\^~])\s*(\d+(?:\.\d+)*)(?:\.\*)?$", part)
    if match is not None:
        kind, numbers = match.group(1), [int(n) for n in match.group(2).split(".")]
        if kind == "^":
            first = next((i for i, n in enumerate(numbers) if n != 0), len(numbers) - 1)
        else:
            first = min(1, len(numbers) - 1) if len(numbers) > 1 else 0
        bound = numbers[: first + 1]
        bound[-1] += 1
        return f">={match.group(2)},<{'.'.join(map(str, bound))}"
    if re.match(r"^\d", part):
        return f"=={part}"
    return part


# --- reading files -----------------------------------------------------------------------------


def _read(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as handle:
            return handle.read(4_000_000).decode("utf-8", "replace")
    except OSError:
        return None


def _toml(text: str) -> Optional[dict]:
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            return None
    try:
        return tomllib.loads(text)
    except Exception:  # invalid TOML: declares nothing we can read
        return None


def _uncommented(line: str, hash_starts_comment: Callable[[str, int], bool]) -> str:
    """`line` up to its comment."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            if char == "\\" and quote == '"':
                continue
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#" and hash_starts_comment(line, index):
            return line[:index]
    return line


def _toml_comment(line: str, index: int) -> bool:
    return True


class _Lines:
    """A file's lines without their comments, to find where a value read by a parser is written."""

    def __init__(self, text: str, hash_starts_comment=_toml_comment):
        self.lines = [_uncommented(line, hash_starts_comment) for line in text.splitlines()]

    def find(self, pattern: "re.Pattern[str]", start: int = 0) -> int:
        for number in range(start, len(self.lines)):
            if pattern.search(self.lines[number]):
                return number + 1
        return 0

    def quoted(self, value: str) -> int:
        return self.find(re.compile(r"[\"']" + re.escape(value) + r"[\"']")) or self.find(re.compile(re.escape(value)))


def _requirement(text: str):
    """A PEP 508 requirement, or None."""
    Requirement, InvalidRequirement = _packaging()[:2]
    try:
        return Requirement(text.strip())
    except InvalidRequirement:
        return None


def _from_pep508(package: str, text: str, path: str, line: int) -> Optional[Declared]:
    requirement = _requirement(text)
    if requirement is None or canonical(requirement.name) != package:
        return None
    shown = text.strip()
    if requirement.url:
        return Declared(package, "", path, line, shown, url=True)
    return Declared(package, str(requirement.specifier), path, line, shown)


def _pep508_strings(package: str, values: Any, path: str, lines: _Lines) -> Iterator[Declared]:
    for value in values if isinstance(values, list) else ():
        if isinstance(value, str) and package in canonical(value):
            found = _from_pep508(package, value, path, lines.quoted(value))
            if found is not None and found.line:
                yield found


def _pyproject(package: str, path: str, text: str) -> Iterator[Declared]:
    data = _toml(text)
    if not isinstance(data, dict):
        return
    lines = _Lines(text)
    project = _table(data, "project")
    yield from _pep508_strings(package, project.get("dependencies"), path, lines)
    for group in _table(project, "optional-dependencies").values():
        yield from _pep508_strings(package, group, path, lines)
    for group in _table(data, "dependency-groups").values():
        yield from _pep508_strings(package, group, path, lines)
    uv = _table(_table(data, "tool"), "uv")
    for key in ("dev-dependencies", "override-dependencies", "constraint-dependencies"):
        yield from _pep508_strings(package, uv.get(key), path, lines)
    for name, source in _table(uv, "sources").items():
        if canonical(name) == package and isinstance(source, dict) and {"git", "url", "path"} & set(source):
            line = lines.find(_key(name))
            yield Declared(package, "", path, line, f"[tool.uv.sources] {name} = {_inline(source)}", url=True)
    pdm = _table(_table(data, "tool"), "pdm")
    for group in _table(pdm, "dev-dependencies").values():
        yield from _pep508_strings(package, group, path, lines)
    poetry = _table(_table(data, "tool"), "poetry")
    tables = [_table(poetry, "dependencies"), _table(poetry, "dev-dependencies")]
    tables += [_table(group, "dependencies") for group in _table(poetry, "group").values() if isinstance(group, dict)]
    for table in tables:
        yield from _poetry_table(package, table, path, lines)


def _table(data: Any, key: str) -> dict:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _key(name: str) -> "re.Pattern[str]":
    return re.compile(r"^\s*[\"']?" + re.escape(name) + r"[\"']?\s*=")


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_inline(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def _poetry_table(package: str, table: dict, path: str, lines: _Lines, converted: Callable[[str], str] = poetry_specifier) -> Iterator[Declared]:
    for name, value in table.items():
        if canonical(name) != package:
            continue
        line = lines.find(_key(name))
        shown = f"{name} = {_inline(value)}"
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                yield Declared(package, converted(item), path, line, shown)
            elif isinstance(item, dict):
                if {"git", "url", "path", "file"} & set(item):
                    yield Declared(package, "", path, line, shown, url=True)
                else:
                    yield Declared(package, converted(str(item.get("version", ""))), path, line, shown)


def _pipfile(package: str, path: str, text: str) -> Iterator[Declared]:
    data = _toml(text)
    if not isinstance(data, dict):
        return
    lines = _Lines(text)
    for key in ("packages", "dev-packages"):
        yield from _poetry_table(package, _table(data, key), path, lines, lambda s: "" if s.strip() == "*" else s)


def _setup_cfg(package: str, path: str, text: str) -> Iterator[Declared]:
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    lines = _Lines(text, lambda line, index: index == 0 or line[:index].strip() == "" or line[index - 1].isspace())
    values = []
    if parser.has_option("options", "install_requires"):
        values.append(parser.get("options", "install_requires"))
    if parser.has_section("options.extras_require"):
        values += [parser.get("options.extras_require", key) for key in parser.options("options.extras_require")]
    for value in values:
        for item in value.splitlines():
            item = _uncommented(item, lambda line, index: index == 0 or line[index - 1].isspace()).strip()
            if item and package in canonical(item):
                found = _from_pep508(package, item, path, lines.find(re.compile(re.escape(item))))
                if found is not None:
                    yield found


def _setup_py(package: str, path: str, text: str) -> Iterator[Declared]:
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            for element in node.elts:
                if isinstance(element, ast.Constant) and isinstance(element.value, str) and package in canonical(element.value):
                    found = _from_pep508(package, element.value, path, element.lineno)
                    if found is not None:
                        yield found


def _pip_comment(line: str, index: int) -> bool:
    return index == 0 or line[index - 1].isspace()


def _requirements_txt(package: str, path: str, text: str, seen: Optional[set] = None, depth: int = 0) -> Iterator[Declared]:
    """pip's format: one requirement a line, `\\` continues a line, `#` after a blank starts a
    comment, `-r`/`-c` include another file (relative to this one), `-e URL#egg=name`."""
    seen = set() if seen is None else seen
    seen.add(os.path.realpath(path))
    logical: List[Tuple[int, str]] = []
    pending, first = "", 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not pending:
            first = number
        code = _uncommented(line, _pip_comment).rstrip()
        if code.endswith("\\") and code == line.rstrip():  # continued on the next line
            pending += code[:-1] + " "
            continue
        logical.append((first, (pending + code).strip()))
        pending = ""
    for number, line in logical:
        if not line:
            continue
        include = re.match(r"^(?:-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+|(?=[^\s-]))(\S+)", line)
        if include is not None:
            target = os.path.join(os.path.dirname(path), include.group(1))
            if depth < _INCLUDE_DEPTH and os.path.realpath(target) not in seen:
                included = _read(target)
                if included is not None:
                    yield from _requirements_txt(package, target, included, seen, depth + 1)
            continue
        editable = re.match(r"^(?:-e|--editable)\s+(\S+)", line)
        if editable is not None:
            egg = re.search(r"[#&]egg=([\w.-]+)", editable.group(1))
            if egg is not None and canonical(egg.group(1)) == package:
                yield Declared(package, "", path, number, line, url=True)
            continue
        if line.startswith("-"):
            continue  # --index-url and other options
        line = re.split(r"\s+--?[a-z]", line)[0]  # `nnsight==0.4 --hash=sha256:...`
        if package in canonical(line):
            found = _from_pep508(package, line, path, number)
            if found is None and re.match(r"^(?:git\+|https?://|file:)", line):
                egg = re.search(r"[#&]egg=([\w.-]+)", line)
                if egg is not None and canonical(egg.group(1)) == package:
                    found = Declared(package, "", path, number, line, url=True)
            if found is not None:
                yield found


def _environment_yml(package: str, path: str, text: str) -> Iterator[Declared]:
    """conda's `- nnsight=0.5` items and the `- pip:` section's PEP 508 items, read line by line."""
    pip_indent: Optional[int] = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _uncommented(raw, _pip_comment).rstrip()
        item = re.match(r"^(\s*)-\s*(.*)$", line)
        if item is None:
            if line.strip() and pip_indent is not None and len(line) - len(line.lstrip()) <= pip_indent:
                pip_indent = None
            continue
        indent, value = len(item.group(1)), item.group(2).strip().strip("\"'")
        if pip_indent is not None and indent <= pip_indent:
            pip_indent = None
        if value.rstrip(":").strip() == "pip" and value.endswith(":"):
            pip_indent = indent
            continue
        if package not in canonical(value):
            continue
        if pip_indent is not None:
            found = _from_pep508(package, value, path, number)
        else:
            conda = re.match(r"^(?:[\w.-]+::)?([A-Za-z0-9_.-]+)\s*(.*)$", value)
            if conda is None or canonical(conda.group(1)) != package:
                continue
            spec = conda.group(2).strip().split()[0] if conda.group(2).strip() else ""
            if re.match(r"^=?\d", spec):  # conda's `=0.5` means 0.5.*
                spec = "==" + spec.lstrip("=") + ("" if spec.startswith("==") else ".*")
            found = _from_pep508(package, f"{conda.group(1)}{spec}", path, number)
            found = found and Declared(package, found.specifier, path, number, value)
        if found is not None:
            yield found


def _toml_lock(package: str, path: str, text: str) -> Iterator[Declared]:
    data = _toml(text)
    if not isinstance(data, dict) or not isinstance(data.get("package"), list):
        return
    lines = _Lines(text)
    name_line = re.compile(r"^\s*name\s*=\s*[\"']([^\"']+)[\"']")
    for entry in data["package"]:
        if isinstance(entry, dict) and canonical(str(entry.get("name", ""))) == package and entry.get("version"):
            line = next((n + 1 for n, t in enumerate(lines.lines) if (m := name_line.match(t)) and canonical(m.group(1)) == package), 0)
            yield Declared(package, f"=={entry['version']}", path, line, f"{entry['name']} {entry['version']}", locked=True)
            return


def _pipfile_lock(package: str, path: str, text: str) -> Iterator[Declared]:
    try:
        data = json.loads(text)
    except ValueError:
        return
    for section in ("default", "develop"):
        for name, entry in (data.get(section) or {}).items() if isinstance(data, dict) else ():
            if canonical(name) == package and isinstance(entry, dict) and isinstance(entry.get("version"), str):
                line = _Lines(text, lambda line, index: False).find(re.compile(r"\"" + re.escape(name) + r"\"\s*:"))
                yield Declared(package, entry["version"], path, line, f"{name} {entry['version']}", locked=True)
                return


_READERS: Dict[str, Callable[[str, str, str], Iterator[Declared]]] = {
    "pyproject.toml": _pyproject,
    "setup.cfg": _setup_cfg,
    "setup.py": _setup_py,
    "Pipfile": _pipfile,
    "environment.yml": _environment_yml,
    "environment.yaml": _environment_yml,
    "uv.lock": _toml_lock,
    "poetry.lock": _toml_lock,
    "pdm.lock": _toml_lock,
    "Pipfile.lock": _pipfile_lock,
}


# --- a directory -------------------------------------------------------------------------------


def declaring_files(directory: str) -> List[str]:
    """The files of `directory` that may declare requirements, in the order they are read
    (remembered while the directory's own mtime stays the same: files come and go with it)."""
    try:
        key = os.stat(directory).st_mtime_ns
    except OSError:
        return []
    known = _LISTINGS.get(directory)
    if known is not None and known[0] == key:
        return known[1]
    if len(_LISTINGS) > 4096:
        _LISTINGS.clear()
    found = _declaring_files(directory)
    _LISTINGS[directory] = (key, found)
    return found


_LISTINGS: Dict[str, Tuple[int, List[str]]] = {}


def _declaring_files(directory: str) -> List[str]:
    try:
        names = set(os.listdir(directory))
    except OSError:
        return []
    found = [os.path.join(directory, n) for n in (*_PLAIN_FILES, *LOCKFILES) if n in names]
    requirements = sorted(n for n in names if _REQUIREMENTS_FILE.match(n))
    if "requirements" in names and os.path.isdir(os.path.join(directory, "requirements")):
        try:
            requirements += sorted(os.path.join("requirements", n) for n in os.listdir(os.path.join(directory, "requirements"))
                                   if n.endswith((".txt", ".in")))
        except OSError:
            pass
    at = len([f for f in found if os.path.basename(f) in _PLAIN_FILES])
    found[at:at] = [os.path.join(directory, n) for n in requirements]
    return [path for path in found if os.path.isfile(path)]


def _stat_key(path: str) -> Tuple[int, int]:
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_size, status.st_mtime_ns)


@functools.lru_cache(maxsize=1024)
def _declared_in_file(path: str, package: str, key: Tuple[int, int]) -> Tuple[Declared, ...]:
    text = _read(path)
    if text is None or package.replace("-", "") not in text.lower().replace("-", "").replace("_", ""):
        return ()
    name = os.path.basename(path)
    reader = _READERS.get(name, _requirements_txt)
    return tuple(reader(package, path, text))


def declared(directory: str, package: str) -> List[Declared]:
    """What `directory`'s own files declare of `package`, in file and line order."""
    package = canonical(package)
    out: List[Declared] = []
    for path in declaring_files(directory):
        out.extend(_declared_in_file(path, package, _stat_key(path)))
    return out


@functools.lru_cache(maxsize=1024)
def _declares_dependencies(path: str, key: Tuple[int, int]) -> bool:
    name = os.path.basename(path)
    if name != "pyproject.toml":
        text = _read(path) or ""
        if name == "setup.py":
            return "install_requires" in text
        if name == "setup.cfg":
            return "install_requires" in text
        return True
    data = _toml(_read(path) or "")
    if not isinstance(data, dict):
        return False
    project = _table(data, "project")
    tool = _table(data, "tool")
    poetry = [k for k in _table(_table(tool, "poetry"), "dependencies") if k != "python"]
    return bool(project.get("dependencies") or _table(project, "optional-dependencies") or _table(data, "dependency-groups")
                or poetry or _table(_table(tool, "poetry"), "group") or _table(tool, "uv").get("dev-dependencies"))


def declares_dependencies(directory: str, names: Optional[Sequence[str]] = None) -> bool:
    """Do `directory`'s files (those of `names`, or all) declare dependencies (of any package)?"""
    files = declaring_files(directory)
    if names is not None:
        files = [path for path in files if os.path.basename(path) in names]
    return any(_declares_dependencies(path, _stat_key(path)) for path in files)


def strongest(found: Sequence[Declared]) -> Optional[Declared]:
    """The declaration that decides: the strongest kind, the first of that kind in file order."""
    best: Optional[Declared] = None
    for declaration in found:
        if best is None or declaration.strength > best.strength:
            best = declaration
    return best


@functools.lru_cache(maxsize=None)
def installed_version(package: str) -> Optional[str]:
    """The installed distribution's version, from its metadata (the package is not imported);
    looked up once per process (an editor's server asks at every keystroke)."""
    found, seen_all = _scanned_version(package)
    if found is not None or seen_all:
        return found
    # Where importlib.metadata would look further than the scan (a zip on sys.path, an egg, a
    # finder of distributions of its own); it costs 20-50 ms to import.
    try:
        from importlib import metadata
    except ImportError:  # pragma: no cover
        return None
    try:
        return metadata.version(package)
    except Exception:  # noqa: BLE001  PackageNotFoundError, or broken metadata
        return None


def _scanned_version(package: str) -> Tuple[Optional[str], bool]:
    """(`Version:` of the first `<name>-*.dist-info/METADATA` (or `.egg-info/PKG-INFO`) on
    `sys.path`, the directories importlib.metadata searches, in its order and with its name
    normalisation, or None; whether that saw all importlib.metadata would: every entry of sys.path
    a directory (or missing), none an egg, no finder of distributions but the standard one, and
    every metadata file found read). Where it did, a package it does not find is not installed."""
    import sys

    seen_all = all(getattr(finder, "find_distributions", None) is None or finder is _path_finder()
                   for finder in sys.meta_path)
    wanted = _metadata_name(package)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            seen_all = seen_all and not os.path.exists(entry or ".")  # a zip importlib.metadata opens
            continue
        seen_all = seen_all and not os.path.basename(entry).lower().endswith(".egg")
        for name in names:
            stem, dot, suffix = name.lower().rpartition(".")
            if suffix not in ("dist-info", "egg-info") or _metadata_name(stem.partition("-")[0]) != wanted:
                continue
            folder = os.path.join(entry or ".", name)
            metadata = os.path.join(folder, "METADATA" if suffix == "dist-info" else "PKG-INFO")
            version = _header_version(metadata if os.path.isdir(folder) else folder)
            if version is not None:
                return version, True
            seen_all = False  # metadata without a version: importlib.metadata decides
    return None, seen_all


def _path_finder():
    import importlib.machinery

    return importlib.machinery.PathFinder


def _metadata_name(name: str) -> str:
    """A distribution name as importlib.metadata compares it (`Prepared.normalize`)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _header_version(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.strip():
                    return None  # the headers end: the body (a description) follows
                key, colon, value = line.partition(":")
                if colon and key.strip().lower() == "version":
                    return value.strip() or None
    except OSError:
        pass
    return None
