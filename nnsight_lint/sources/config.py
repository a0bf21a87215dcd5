"""Settings: `[tool.nnsight-lint]` from the nearest pyproject.toml, with command-line flags on top.

Loading settings imports neither libcst nor the rules: `tomllib` (Python 3.11+) or `tomli` reads
the file, and only a pyproject.toml that mentions nnsight-lint (or a near miss of its name, which
is warned about) is parsed at all.
"""
from __future__ import annotations

import difflib
import functools
import os
import re
from dataclasses import dataclass, fields, replace
from typing import Any, Callable, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

TABLE = "tool.nnsight-lint"
DEFAULT_TRACE_NAMES = ("trace",)


class ConfigError(Exception):
    """A configuration file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Settings:
    select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    exclude: Tuple[str, ...] = ()
    extend_exclude: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    respect_gitignore: bool = True
    notebooks: bool = True
    trace_names: Tuple[str, ...] = DEFAULT_TRACE_NAMES
    target_version: Optional[str] = None  # "0.4"; None: inferred from the declared nnsight requirement
    report_deliberate_errors: bool = False
    config_file: Optional[str] = None  # where the table came from; None: defaults only
    root: str = "."  # the project root: the config file's directory, else the working directory
    checked: str = "."  # the first path checked: where an undeclared target-version is looked for

    def lint_options(self, path: Optional[str] = None):
        """The engine's options; with `path`, its `per-file-ignores` join `ignore`."""
        from nnsight_lint.engine.lint import LintOptions

        ignore = self.ignore + (self.ignored_in(path) if path is not None else ())
        return LintOptions(
            select=self.select,
            ignore=ignore,
            trace_names=self.trace_names,
            target_version=self.target().version,
            report_deliberate_errors=self.report_deliberate_errors,
        )

    def target(self):
        """The nnsight the project is written for (`versions.Target`): the setting, else what the
        project declares, else the newest API."""
        from nnsight_lint.knowledge import versions

        if self.target_version is not None:
            where = f"{self.config_file}: target-version" if self.config_file else "--target-version"
            return versions.Target(versions.parse(self.target_version), where)
        return _inferred_target(os.path.abspath(self.checked))

    def ignored_in(self, path: str) -> Tuple[str, ...]:
        """The codes `per-file-ignores` turns off for `path`."""
        from nnsight_lint.sources.discovery import glob_patterns, matches_globs

        codes: Tuple[str, ...] = ()
        for glob, listed in self.per_file_ignores:
            if matches_globs(path, self.root, glob_patterns(self.root, [glob])):
                codes += listed
        return codes

    def is_excluded(self, path: str) -> bool:
        from nnsight_lint.sources.discovery import glob_patterns, matches_globs

        globs = self.exclude + self.extend_exclude
        return bool(globs) and matches_globs(path, self.root, glob_patterns(self.root, globs))

    def files(self, paths: Sequence[str], force_exclude: bool = False, **walk) -> Iterator[str]:
        """`discovery.iter_files` with `exclude` applied: to what directory walks find, and to
        files named explicitly only with `force_exclude` (pre-commit names every staged file)."""
        from nnsight_lint.sources.discovery import glob_patterns, iter_files, matches_globs

        walk.setdefault("respect_gitignore", self.respect_gitignore)
        globs = self.exclude + self.extend_exclude
        patterns = glob_patterns(self.root, globs)
        explicit = {os.path.normpath(p) for p in paths if not os.path.isdir(p)}
        for file in iter_files(paths, **walk):
            if patterns and (force_exclude or file not in explicit) and matches_globs(file, self.root, patterns):
                continue
            yield file

    def describe(self) -> str:
        """The resolved settings as a `[tool.nnsight-lint]` table one could paste back."""
        origin = f"# config file: {os.path.abspath(self.config_file)}" if self.config_file else "# no config file: defaults"
        target = self.target()
        lines = [origin, f"# project root: {os.path.abspath(self.root)}",
                 f"# target-version: {target.version[0]}.{target.version[1]} ({target.source})", f"[{TABLE}]"]
        for key in _KEYS:
            value = getattr(self, _attribute(key))
            if value is None:
                continue
            lines.append(f"{key} = {_toml(dict(value) if key == 'per-file-ignores' else value)}")
        return "\n".join(lines) + "\n"


def _attribute(key: str) -> str:
    return key.replace("-", "_")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{_toml(k)} = {_toml(v)}" for k, v in value.items()) + "}"


# --- reading and checking the table -------------------------------------------------------------


def _string_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


_KEYS = {
    "select": (_string_list, "a list of rule codes or prefixes"),
    "ignore": (_string_list, "a list of rule codes or prefixes"),
    "exclude": (_string_list, "a list of gitignore-style globs"),
    "extend-exclude": (_string_list, "a list of gitignore-style globs"),
    "per-file-ignores": (
        lambda v: isinstance(v, dict) and all(_string_list(codes) for codes in v.values()),
        "a table of glob = [codes]",
    ),
    "respect-gitignore": (lambda v: isinstance(v, bool), "true or false"),
    "notebooks": (lambda v: isinstance(v, bool), "true or false"),
    "target-version": (lambda v: _is_version(v), 'an nnsight version as "MAJOR.MINOR", e.g. "0.8"'),
    "report-deliberate-errors": (lambda v: isinstance(v, bool), "true or false"),
    "trace-names": (
        lambda v: _string_list(v) and bool(v) and all(n.isidentifier() for n in v),
        "a non-empty list of names (identifiers)",
    ),
}


def _is_version(value: Any) -> bool:
    from nnsight_lint.knowledge import versions

    try:
        versions.parse(value)
    except versions.VersionError:
        return False
    return isinstance(value, str)


@functools.lru_cache(maxsize=64)
def _inferred_target(root: str):
    from nnsight_lint.knowledge import versions

    return versions.infer(root)


def _codes(values: Iterable[str]) -> Tuple[str, ...]:
    return tuple(v.strip().upper() for v in values if v.strip())


def settings_from_table(table: Mapping[str, Any], config_file: str, known_codes: Optional[Iterable[str]] = None) -> Settings:
    """Check `table` (an unknown key or a wrong type is a ConfigError naming both) and build Settings."""
    where = f"{config_file}: [{TABLE}]"
    for key, value in table.items():
        if key not in _KEYS:
            close = difflib.get_close_matches(key, list(_KEYS), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f"; known keys: {', '.join(_KEYS)}"
            raise ConfigError(f"{where}: unknown key '{key}'{hint}")
        valid, expected = _KEYS[key]
        if not valid(value):
            raise ConfigError(f"{where}: '{key}' must be {expected}, not {_shown(value)}")
    values = {}
    for key, value in table.items():
        if key in ("select", "ignore"):
            value = _codes(value)
        elif key == "per-file-ignores":
            value = tuple((glob, _codes(codes)) for glob, codes in value.items())
        elif isinstance(value, list):
            value = tuple(value)
        values[_attribute(key)] = value
    settings = Settings(config_file=config_file, root=os.path.dirname(os.path.abspath(config_file)), **values)
    if known_codes is not None:
        check_codes(settings, known_codes)
    return settings


def check_codes(settings: Settings, known_codes: Iterable[str]) -> None:
    known = list(known_codes)
    where = f"{settings.config_file}: [{TABLE}]"
    listed = [("select", settings.select), ("ignore", settings.ignore)]
    listed += [(f"per-file-ignores.\"{glob}\"", codes) for glob, codes in settings.per_file_ignores]
    for key, codes in listed:
        unknown = [c for c in codes if not any(k.startswith(c) for k in known)]
        if unknown:
            raise ConfigError(f"{where}: '{key}': unknown rule code or prefix {', '.join(unknown)}")


def _shown(value: Any) -> str:
    kind = {bool: "a boolean", str: "a string", int: "an integer", float: "a number",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)
    return f"{kind} ({value!r})" if not isinstance(value, (list, dict)) else f"{kind}: {value!r}"


def _load_toml(path: str) -> dict:
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            raise ConfigError(
                f"{path}: reading [{TABLE}] needs Python 3.11+ or the `tomli` package "
                f"(`pip install tomli`; in pre-commit, `additional_dependencies: [tomli]`)"
            ) from None
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    except UnicodeDecodeError as error:  # TOML is UTF-8; tomllib lets the decoder's error through
        data, at = error.object, error.start
        line, column = data.count(b"\n", 0, at) + 1, at - data.rfind(b"\n", 0, at)
        raise ConfigError(
            f"{path}: invalid TOML: not UTF-8 text (byte 0x{data[at]:02x} at line {line}, column {column})"
        ) from None


def _table_of(path: str, data: dict) -> Optional[dict]:
    if os.path.basename(path) != "pyproject.toml":
        return data  # a file of our own (`--config nnsight-lint.toml`): its top level is the table
    table = data.get("tool", {}).get("nnsight-lint") if isinstance(data.get("tool"), dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [{TABLE}] must be a table")
    return table


_OUR_NAME = re.compile(rb"(?i)nnsight[-_.]?lint")  # ours, or a near miss: nnsight_lint, nnsightlint


def _mentions_us(path: str) -> bool:
    """A cheap look before parsing: a pyproject.toml without our name has no table of ours."""
    try:
        with open(path, "rb") as handle:
            return _OUR_NAME.search(handle.read()) is not None
    except OSError:
        return False


def _near_misses(data: dict) -> List[str]:
    """`[tool.X]` tables that are spelt almost as ours (`nnsight_lint`, `nnsightlint`, `NNsight-Lint`)."""
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return []
    return [key for key in tool if key != "nnsight-lint" and re.sub(r"[-_.]", "", key.lower()) == "nnsightlint"]


def find_config(start: str, on_warning: Optional[Callable[[str, str], None]] = None) -> Optional[str]:
    """The nearest pyproject.toml with a [tool.nnsight-lint] table, from `start` upward. A table
    spelt almost as ours is not read: `on_warning(path, message)` says so."""
    directory = os.path.abspath(start)
    if not os.path.isdir(directory):
        directory = os.path.dirname(directory)
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate) and _mentions_us(candidate):
            data = _load_toml(candidate)
            if _table_of(candidate, data) is not None:
                return candidate
            for key in _near_misses(data):
                if on_warning is not None:
                    on_warning(candidate, f"[tool.{key}] is not read; did you mean [{TABLE}]?")
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def load_settings(
    paths: Sequence[str] = (), config_file: Optional[str] = None, known_codes: Optional[Iterable[str]] = None,
    on_warning: Optional[Callable[[str, str], None]] = None,
) -> Settings:
    """Settings for a run over `paths`: from `config_file` when given, else the nearest pyproject.toml
    above the first path (or the working directory), else the defaults. `on_warning(path, message)`
    hears of a table spelt almost as ours, which is not read."""
    first = next((p for p in paths if p != "-"), ".")
    if config_file is None:
        config_file = find_config(first, on_warning)
        if config_file is None:
            return Settings(root=os.getcwd(), checked=first)
    elif not os.path.isfile(config_file):
        raise ConfigError(f"{config_file}: no such config file")
    table = _table_of(config_file, _load_toml(config_file)) or {}
    return replace(settings_from_table(table, config_file, known_codes), checked=first)


def with_overrides(settings: Settings, **flags: Any) -> Settings:
    """Command-line values replace the file's; `extend_exclude` adds to it. None means not given."""
    given = {key: value for key, value in flags.items() if value is not None}
    unknown = set(given) - {f.name for f in fields(Settings)}
    if unknown:
        raise TypeError(f"unknown settings: {sorted(unknown)}")
    if "extend_exclude" in given:
        given["extend_exclude"] = settings.extend_exclude + tuple(given["extend_exclude"])
    return replace(settings, **{key: tuple(v) if isinstance(v, list) else v for key, v in given.items()})
