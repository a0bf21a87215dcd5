"""Settings per file: `[tool.nnsight-lint]` of the file's nearest project, its target versions as
the project declares them, with command-line flags on top (`Resolver`, which every door asks).

Loading settings imports neither libcst nor the rules: `tomllib` (Python 3.11+) or `tomli` reads
the file, and only a pyproject.toml that mentions nnsight-lint is parsed at all.
"""
from __future__ import annotations

import difflib
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
    transformers_version: Optional[str] = None  # "4.57"; None: inferred from the declared transformers
    report_deliberate_errors: bool = False
    live_schemas: bool = False  # measure a model the bundled table lacks with the installed torch + transformers
    models: Tuple[Tuple[str, str], ...] = ()  # [tool.nnsight-lint.models]: name or id -> hub id / config.json
    config_file: Optional[str] = None  # where the table came from; None: defaults only
    root: str = "."  # the project root: the config file's directory, else the working directory
    checked: str = "."  # the file (or directory) these settings are for: where inference starts
    origins: Tuple[Tuple[str, str], ...] = ()  # key -> where its value came from (a file, a flag)
    # What `Resolver` inferred for `checked` (None: not resolved, `target()` infers it afresh).
    inferred_target: Optional[Any] = None
    inferred_transformers: Optional[Any] = None

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
            transformers_version=self.transformers()[0],
            models=dict(self.models),
            live_schemas=self.live_schemas,
        )

    def target(self):
        """The nnsight the project is written for (`versions.Target`): the setting, else what the
        project declares, else the installed nnsight, else the newest API."""
        from nnsight_lint.knowledge import versions

        if self.target_version is not None:
            return versions.Target(versions.parse(self.target_version), self._origin("target-version"))
        if self.inferred_target is not None:
            return self.inferred_target
        return target_of(decide(self.checked, "nnsight"))

    def transformers(self) -> Tuple[Optional[str], str]:
        """(the transformers the project is written for, or None when unknown; where that came from)."""
        if self.transformers_version is not None:
            return self.transformers_version, self._origin("transformers-version")
        decision = self.inferred_transformers or decide(self.checked, "transformers")
        return decision.version, decision.source

    def _origin(self, key: str) -> str:
        where = dict(self.origins).get(key, "default")
        return where if where.startswith("--") or where == "default" else f"{where}: {key}"

    def ignored_in(self, path: str) -> Tuple[str, ...]:
        """The codes `per-file-ignores` turns off for `path`."""
        from nnsight_lint.sources.discovery import glob_patterns, matches_globs

        codes: Tuple[str, ...] = ()
        for glob, listed in self.per_file_ignores:
            if matches_globs(path, self.root, glob_patterns(self.root, [glob])):
                codes += listed
        return codes

    def is_excluded(self, path: str) -> bool:
        globs = self.exclude + self.extend_exclude
        if not globs:
            return False  # asked of every file a walk finds
        from nnsight_lint.sources.discovery import glob_patterns, matches_globs

        return matches_globs(path, self.root, glob_patterns(self.root, globs))

    def describe(self) -> str:
        """The settings of `checked` as a `[tool.nnsight-lint]` table one could paste back, each key
        with where its value came from."""
        from nnsight_lint.knowledge import versions

        origin = f"# config file: {os.path.abspath(self.config_file)}" if self.config_file else "# no config file: defaults"
        target = self.target()
        transformers, transformers_source = self.transformers()
        lines = [f"# settings for: {os.path.abspath(self.checked)}", origin,
                 f"# project root: {os.path.abspath(self.root)}",
                 f"# target-version: {versions.show(target.version)} ({target.source})",
                 f"# transformers-version: {transformers or 'unknown'} ({transformers_source})", f"[{TABLE}]"]
        origins = dict(self.origins)
        for key in _KEYS:
            value = getattr(self, _attribute(key))
            if value is None or key == "models":
                continue
            shown = dict(value) if key == "per-file-ignores" else value
            lines.append(f"{key} = {_toml(shown)}  # {origins.get(key, 'default')}")
        if self.models:
            lines += [f"\n[{TABLE}.models]  # {origins.get('models', 'default')}"]
            lines += [f"{_toml(name)} = {_toml(where)}" for name, where in self.models]
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
    "target-version": (lambda v: _is_version(v), 'an nnsight version as "MAJOR.MINOR" (0.1 or later), e.g. "0.8"'),
    "transformers-version": (lambda v: isinstance(v, str) and _RELEASE.match(v) is not None,
                             'a transformers version such as "4.57" or "5.3.0"'),
    "report-deliberate-errors": (lambda v: isinstance(v, bool), "true or false"),
    "live-schemas": (lambda v: isinstance(v, bool), "true or false"),
    "trace-names": (
        lambda v: _string_list(v) and bool(v) and all(n.isidentifier() for n in v),
        "a non-empty list of names (identifiers)",
    ),
    "models": (
        lambda v: isinstance(v, dict) and all(isinstance(w, str) and w for w in v.values()),
        "a table of name = \"hub id or path to a config.json\"",
    ),
}
_RELEASE = re.compile(r"^\d+(?:\.\d+){0,3}$")


def _is_version(value: Any) -> bool:
    from nnsight_lint.knowledge import versions

    try:
        versions.parse_target(value)
    except versions.VersionError:
        return False
    return isinstance(value, str)


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
        elif key == "models":
            value = tuple(value.items())
        elif isinstance(value, list):
            value = tuple(value)
        values[_attribute(key)] = value
    origins = tuple((key, config_file) for key in table)
    settings = Settings(config_file=config_file, root=os.path.dirname(os.path.abspath(config_file)), origins=origins, **values)
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
    """A cheap look before parsing: a pyproject.toml without our name (or a near miss of it) has
    no table of ours."""
    try:
        with open(path, "rb") as handle:
            return _OUR_NAME.search(handle.read()) is not None
    except OSError:
        return False


def _near_misses(data: dict) -> List[str]:
    """`[tool.X]` tables spelt almost as ours (`nnsight_lint`, `nnsightlint`, `NNsight-Lint`)."""
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return []
    return [key for key in tool if key != "nnsight-lint" and re.sub(r"[-_.]", "", key.lower()) == "nnsightlint"]


def _config_in(directory: str, on_warning: Optional[Callable[[str, str], None]] = None) -> Optional[str]:
    """`directory`'s pyproject.toml when it has a [tool.nnsight-lint] table. A table spelt almost
    as ours is not read: `on_warning(path, message)` says so."""
    candidate = os.path.join(directory, "pyproject.toml")
    if os.path.isfile(candidate) and _mentions_us(candidate):
        data = _load_toml(candidate)
        if _table_of(candidate, data) is not None:
            return candidate
        for key in _near_misses(data) if on_warning is not None else ():
            on_warning(candidate, f"[tool.{key}] is not read; did you mean [{TABLE}]?")
    return None


def _directory(path: str) -> str:
    path = os.path.abspath(path)
    return path if os.path.isdir(path) else os.path.dirname(path)


def find_config(start: str) -> Optional[str]:
    """The nearest pyproject.toml with a [tool.nnsight-lint] table, from `start` upward."""
    directory = _directory(start)
    while True:
        found = _config_in(directory)
        if found is not None:
            return found
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


# --- what the project declares: the target nnsight and transformers ------------------------------


def decide(start: str, package: str, memo: Optional[dict] = None):
    """What decides `package`'s version for the file or directory `start`: the nearest directory
    at or above it whose files declare the package (the strongest declaration there: an exact pin,
    then a lockfile, then a range, then a bare name); the search stops at a project root that
    declares its dependencies without it. Where no version decides (nothing declared, a bare name,
    a git or URL requirement), the installed distribution's version (metadata, no import), else
    None. `memo` maps (directory, package) to the decision from there up (one walk per run)."""
    return decide_in(_directory(start), package, {} if memo is None else memo)


def decide_in(directory: str, package: str, memo: dict):
    """`decide` for an absolute directory (a Resolver's: no need to ask the disk what it is)."""
    from nnsight_lint.sources import requirements

    walked = []
    decision = None
    while decision is None:
        if (directory, package) in memo:
            decision = memo[(directory, package)]
            break
        walked.append(directory)
        try:
            found = requirements.declared(directory, package)
            root = not found and _project_root(directory, requirements)
        except requirements.RequirementsError as error:
            raise ConfigError(f"{directory}: {error}") from None
        parent = os.path.dirname(directory)
        if found:
            decision = replace(_decision(package, requirements.strongest(found)), project=directory)
        elif root:
            decision = replace(_fallback(package, f"{directory} declares its dependencies without {package}"),
                               project=directory)
        elif parent == directory:
            decision = _fallback(package, f"no project file declares {package}")
        directory = parent
    for each in walked:
        memo[(each, package)] = decision
    return decision


@dataclass(frozen=True)
class Decision:
    package: str
    version: Optional[str]  # the release aimed at ("0.4.3", "0.2.9", "0.4"); None: unknown
    source: str  # where it came from, for --show-settings
    pinned: bool  # a versioned declaration decided
    project: Optional[str] = None  # the directory whose files decided, or that declares no such package


def _decision(package: str, declared) -> "Decision":
    from nnsight_lint.knowledge import versions
    from nnsight_lint.sources import requirements

    if declared.strength > requirements.UNVERSIONED:
        version, how = requirements.aimed_at(declared.specifier)
        how = "locked" if declared.locked else how
        if version is not None:
            note = versions.HOW.get(how, "")
            return Decision(package, version, declared.where() + (f" ({note})" if note else ""), True)
    kind = "a git or URL requirement" if declared.url else "no version"
    return _fallback(package, f"{declared.where()}: {kind}")


def _fallback(package: str, why: str) -> "Decision":
    from nnsight_lint.sources import requirements

    installed = requirements.installed_version(package)
    if installed is not None:
        return Decision(package, installed, f"{why}; the installed {package} {installed}", False)
    return Decision(package, None, f"{why}; {package} is not installed", False)


def target_of(decision: "Decision"):
    """The nnsight target a decision means: its MAJOR.MINOR, else the newest API."""
    from nnsight_lint.knowledge import versions

    version = versions.leading(decision.version) if decision.version is not None else None
    if version is None:
        return versions.Target(versions.NEWEST, f"{decision.source}: the newest nnsight API", decision.pinned,
                               decision.project)
    return versions.Target(version, decision.source, decision.pinned, decision.project)


# --- one file's settings ------------------------------------------------------------------------


class Resolver:
    """Settings per file, as ruff resolves them: a file gets the table of the nearest directory
    (upward from it) whose pyproject.toml has a [tool.nnsight-lint] table, unless a nearer project
    root that declares dependencies comes first (then: the defaults, rooted there); its target
    versions are what its project declares (`decide`). `--config FILE` gives every file that
    table. Flags go on top. Each directory is resolved once (memoised), so a run over many files
    costs one walk up per directory, and the result never depends on path order or the working
    directory. Every door asks this one class."""

    def __init__(self, config_file: Optional[str] = None, known_codes: Optional[Iterable[str]] = None,
                 on_warning: Optional[Callable[[str, str], None]] = None, **flags: Any):
        self.known_codes = None if known_codes is None else tuple(known_codes)
        self.on_warning = on_warning  # hears of a table spelt almost as ours, once per file
        self.flags = {key: value for key, value in flags.items() if value is not None}
        self._given: Optional[Settings] = None
        if config_file is not None:
            if not os.path.isfile(config_file):
                raise ConfigError(f"{config_file}: no such config file")
            table = _table_of(config_file, _load_toml(config_file)) or {}
            self._given = settings_from_table(table, config_file, self.known_codes)
        self._bases: dict = {}  # directory -> the Settings from its nearest config
        self._respects: dict = {}  # directory -> its settings' respect-gitignore
        self._decisions: dict = {}  # (directory, package) -> Decision
        self._settings: dict = {}  # directory -> its Settings, the target versions not decided
        self._decisions_made: dict = {}  # directory -> its Settings with the target versions decided
        self._screens: dict = {}  # directory -> what the pre-filter needs of its options
        self._by_path: dict = {}  # a path as given -> its directory's Settings
        self._by_written_directory: dict = {}  # a file's directory as given -> its Settings
        self._options: dict = {}  # directory -> its LintOptions

    def for_path(self, path: Optional[str], exact: bool = False, is_file: bool = False) -> Settings:
        """The settings of the file (or directory) `path`; None: the working directory. They are
        its directory's (`checked` names the directory) unless `exact` (`--show-settings`).
        `is_file`: the caller knows `path` is a file (a walk found it): no need to ask the disk."""
        settings = self._decided(self._undecided(path, is_file))
        if exact:
            return replace(settings, checked=os.path.abspath(path if path not in (None, "-") else "."))
        return settings

    def _undecided(self, path: Optional[str], is_file: bool = False) -> Settings:
        """`for_path` before the target versions are decided: all a walk and the pre-filter need."""
        checked = path if path not in (None, "-") else "."
        settings = self._by_path.get(checked)
        if settings is None:
            # A walk's files come directory by directory: their directory as written names the
            # settings without an absolute path per file.
            written = os.path.dirname(checked) if is_file else None
            settings = self._by_written_directory.get(written) if is_file else None
            if settings is None:
                settings = self._for_directory(os.path.dirname(os.path.abspath(checked)) if is_file else _directory(checked))
                if is_file:
                    self._by_written_directory[written] = settings
            self._by_path[checked] = settings
        return settings

    def _for_directory(self, directory: str) -> Settings:
        settings = self._settings.get(directory)
        if settings is None:
            settings = self._settings[directory] = replace(with_overrides(self._base(directory), **self.flags),
                                                           checked=directory)
        return settings

    def _decided(self, settings: Settings) -> Settings:
        """`settings` with what its project declares of nnsight and transformers, decided once per
        directory: a walk over a tree asks it only of the files it will lint."""
        decided = self._decisions_made.get(settings.checked)
        if decided is None:
            directory = settings.checked
            decided = self._decisions_made[directory] = replace(
                settings,
                inferred_target=None if settings.target_version else target_of(self._decide(directory, "nnsight")),
                inferred_transformers=None if settings.transformers_version else self._decide(directory, "transformers"),
            )
        return decided

    def screen(self, path: str):
        """What the pre-filter needs of `path`'s options (`lint.Screen`), its target versions not decided."""
        from nnsight_lint.engine.lint import Screen

        settings = self._undecided(path)
        screen = self._screens.get(settings.checked)
        if screen is None:
            screen = self._screens[settings.checked] = Screen(settings.select, settings.trace_names)
        return screen

    def options(self, path: str):
        """The engine's options for `path` (its per-file-ignores are applied to the findings)."""
        settings = self._undecided(path)
        options = self._options.get(settings.checked)
        if options is None:
            options = self._options[settings.checked] = self._decided(settings).lint_options()
        return options

    def _decide(self, directory: str, package: str):
        return decide_in(directory, package, self._decisions)

    def _base(self, directory: str) -> Settings:
        if self._given is not None:
            return self._given
        from nnsight_lint.sources import requirements

        chain = []
        base = None
        while base is None:
            if directory in self._bases:
                base = self._bases[directory]
                break
            chain.append(directory)
            config_file = _config_in(directory, self.on_warning)
            parent = os.path.dirname(directory)
            if config_file is not None:
                base = settings_from_table(_table_of(config_file, _load_toml(config_file)), config_file, self.known_codes)
            elif _project_root(directory, requirements):
                base = Settings(root=directory)
            elif parent == directory:
                base = Settings(root=os.getcwd())
            directory = parent
        for each in chain:
            self._bases[each] = base
        return base

    def respects_gitignore(self, directory: str) -> bool:
        """Whether a walk skips what `.gitignore` files ignore in `directory`: its own settings'
        `respect-gitignore` (the nearest config's), asked by the walk for each directory."""
        directory = os.path.abspath(directory)
        answer = self._respects.get(directory)
        if answer is None:
            answer = self._respects[directory] = with_overrides(self._base(directory), **self.flags).respect_gitignore
        return answer

    def files(self, paths: Sequence[str], force_exclude: bool = False, on_warning=None) -> Iterator[str]:
        """The files to check under `paths`, each file's own `exclude` and `notebooks` applied (to
        files named explicitly only with `force_exclude`). A walk respects .gitignore files in each
        directory as that directory's settings say (`respects_gitignore`)."""
        from nnsight_lint.sources.discovery import NOTEBOOK_SUFFIXES, iter_files

        seen: set = set()  # `./a.py` and `../d/a.py` are one file: checked once
        for path in paths:
            explicit = not os.path.isdir(path)
            for file in iter_files([path], respect_gitignore=self.respects_gitignore, on_warning=on_warning, seen=seen):
                settings = self._undecided(file, is_file=True)
                if not explicit and file.endswith(NOTEBOOK_SUFFIXES) and not settings.notebooks:
                    continue
                if (force_exclude or not explicit) and settings.is_excluded(file):
                    continue
                yield file


def _project_root(directory: str, requirements) -> bool:
    """A directory whose project files declare dependencies: a pyproject.toml that lists some,
    setup.py / setup.cfg with install_requires, a Pipfile or a lockfile. A lone requirements.txt
    (docs/requirements.txt) or environment.yml declares a target, not a project of its own."""
    return requirements.declares_dependencies(directory, ("pyproject.toml", "setup.py", "setup.cfg", "Pipfile",
                                                          *requirements.LOCKFILES))


_RESOLVERS: dict = {}


def settings_for(path: Optional[str], config_file: Optional[str] = None, **flags: Any) -> Settings:
    """`Resolver(config_file, **flags).for_path(path)`, with one resolver per process and arguments
    (the flake8 and runtime doors, which see one file at a time)."""
    key = (config_file, tuple(sorted((k, repr(v)) for k, v in flags.items())))
    resolver = _RESOLVERS.get(key)
    if resolver is None:
        resolver = _RESOLVERS[key] = Resolver(config_file, **flags)
    return resolver.for_path(path)


def load_settings(
    paths: Sequence[str] = (), config_file: Optional[str] = None, known_codes: Optional[Iterable[str]] = None
) -> Settings:
    """The settings of the first of `paths` (or the working directory): see `Resolver`."""
    first = next((p for p in paths if p != "-"), ".")
    return Resolver(config_file, known_codes).for_path(first)


_FLAG_NAMES = {"select": "--select", "ignore": "--ignore", "exclude": "--exclude", "extend_exclude": "--extend-exclude",
               "notebooks": "--no-notebooks", "target_version": "--target-version",
               "transformers_version": "--transformers-version",
               "report_deliberate_errors": "--report-deliberate-errors"}


def with_overrides(settings: Settings, **flags: Any) -> Settings:
    """Command-line values replace the file's; `extend_exclude` adds to it, and `extend_select` to
    the selection (`--select`, else the file's, else the defaults). None means not given."""
    given = {key: value for key, value in flags.items() if value is not None}
    if not given:
        return settings  # asked for every directory of a walk: no flag, nothing to replace
    extend = given.pop("extend_select", None)
    if extend:
        given["select"] = tuple(given.get("select") or settings.select or ("NNL",)) + tuple(extend)
    unknown = set(given) - {f.name for f in fields(Settings)}
    if unknown:
        raise TypeError(f"unknown settings: {sorted(unknown)}")
    if not given:
        return settings
    if "extend_exclude" in given:
        given["extend_exclude"] = settings.extend_exclude + tuple(given["extend_exclude"])
    origins = dict(settings.origins)
    for key in given:
        origins[key.replace("_", "-")] = _FLAG_NAMES.get(key, key)
    return replace(settings, origins=tuple(origins.items()),
                   **{key: tuple(v) if isinstance(v, list) else v for key, v in given.items()})
