"""Which files to check: walk directories for Python sources, skipping virtualenvs, build output
and what `.gitignore` files ignore. Files named explicitly are always checked.

Only regular files are found: a walk skips FIFOs, devices and sockets (reading one could block
forever), and skips symbolic link loops with a warning, as ruff does: a link that resolves to
itself, or a directory link back to a directory above it."""
from __future__ import annotations

import errno
import os
import re
import stat
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from nnsight_lint import messages

SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "__pycache__", "build", "dist", "node_modules", ".venv", "venv", ".tox",
     ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".nnsight_lint_cache", ".eggs",
     ".ipynb_checkpoints"}
)
PYTHON_SUFFIXES = (".py", ".pyi")
NOTEBOOK_SUFFIXES = (".ipynb",)


class _Matcher:
    """Patterns of one sign compiled together; `last` is the index of the last pattern that matches
    a path. Literal names and paths are dict lookups, `*suffix` and `prefix*` names lookups by
    length, the others one regular expression, latest pattern first (a pattern without `/`
    matches a path's last part, as git says): a few lookups a path, whatever the patterns."""

    __slots__ = ("names", "paths", "suffixes", "prefixes", "name_regex", "path_regex")

    def __init__(self, globs: Sequence[Tuple[int, str, bool]]) -> None:  # (index, glob, anchored)
        self.names: Dict[str, int] = {}
        self.paths: Dict[str, int] = {}
        self.suffixes: Dict[int, Dict[str, int]] = {}
        self.prefixes: Dict[int, Dict[str, int]] = {}
        by_name, by_path = [], []
        for index, glob, anchored in globs:  # in order: a later pattern overwrites an earlier one
            inner = glob[1:] if glob.startswith("*") else glob[:-1] if glob.endswith("*") else None
            if not _wild(glob):
                (self.paths if anchored else self.names)[glob] = index
            elif not anchored and inner and not _wild(inner):
                table = self.suffixes if glob.startswith("*") else self.prefixes
                table.setdefault(len(inner), {})[inner] = index
            else:
                (by_path if anchored else by_name).append((index, _glob_to_regex(glob)))
        self.name_regex = _Alternation(by_name)
        self.path_regex = _Alternation(by_path)

    def last(self, relative: str, name: str) -> int:
        found = max(self.names.get(name, -1), self.paths.get(relative, -1))
        for length, ends in self.suffixes.items():
            if len(name) >= length:
                found = max(found, ends.get(name[-length:], -1))
        for length, starts in self.prefixes.items():
            found = max(found, starts.get(name[:length], -1))
        return max(found, self.name_regex.last(name), self.path_regex.last(relative))


def _wild(glob: str) -> bool:
    return any(c in glob for c in "*?[\\")


class _Alternation:
    """Regular expressions in one, the latest first, each its own group: the group that matches
    names the latest pattern that does."""

    __slots__ = ("regex", "indexes")

    def __init__(self, patterns: List[Tuple[int, str]]) -> None:
        ordered = sorted(patterns, reverse=True)
        self.indexes = [index for index, _ in ordered]
        self.regex = re.compile("(?:" + "|".join(f"({body})" for _, body in ordered) + r")\Z") if ordered else None

    def last(self, text: str) -> int:
        if self.regex is None:
            return -1
        match = self.regex.match(text)
        return -1 if match is None else self.indexes[match.lastindex - 1]


class _Rules:
    """The patterns of one `.gitignore` file (or a setting's globs), compiled once: the last pattern
    that matches a path decides, as in git."""

    __slots__ = ("base", "_matchers", "_count")

    def __init__(self, base: str, patterns: Sequence[Tuple[str, bool, bool, bool]]) -> None:
        # patterns: (glob, anchored, negated, directories only), in the file's order
        self.base = os.path.normpath(base)
        self._count = len(patterns)
        self._matchers = {
            (negated, directories): _Matcher([(i, g, a) for i, (g, a, n, d) in enumerate(patterns) if n == negated and d == directories])
            for negated in (False, True) for directories in (False, True)
        }

    def __bool__(self) -> bool:
        return self._count > 0

    def decide(self, relative: str, is_dir: bool) -> Optional[bool]:
        """True: ignored; False: re-included (`!`); None: no pattern here matches."""
        name = relative.rpartition("/")[2]
        last = {}
        for negated in (False, True):
            found = self._matchers[negated, False].last(relative, name)
            if is_dir:
                found = max(found, self._matchers[negated, True].last(relative, name))
            last[negated] = found
        if last[False] < 0 and last[True] < 0:
            return None
        return last[False] > last[True]


def iter_files(
    paths: Sequence[str],
    suffixes: Tuple[str, ...] = PYTHON_SUFFIXES,
    respect_gitignore: Union[bool, Callable[[str], bool]] = True,
    notebooks: bool = True,
    on_warning: Optional[Callable[[str, str], None]] = None,
    seen: Optional[set] = None,
) -> Iterator[str]:
    """Files to check, each once, in a stable order (sorted within each directory).

    `respect_gitignore`: whether a walk skips what `.gitignore` files ignore, or a function that
    says it for a directory (its settings': `config.Resolver.respects_gitignore`), asked for each
    directory walked, and for the files in it.
    `notebooks` walks `.ipynb` files too; a file named explicitly is checked either way.
    `on_warning(path, why)` hears of what a walk skipped that the user may not expect (a loop).
    `seen`: the absolute paths already given (and added to as files are), shared across calls."""
    if notebooks:
        suffixes = tuple(suffixes) + NOTEBOOK_SUFFIXES
    warn = (lambda path, why: on_warning(os.path.normpath(path), why)) if on_warning else (lambda path, why: None)
    seen = set() if seen is None else seen
    for path in paths:
        found = [path] if not os.path.isdir(path) else _walk(path, suffixes, respect_gitignore, warn)
        for file in found:
            shown = os.path.normpath(file)
            key = os.path.abspath(shown)  # `./a.py` and `../d/a.py` are one file: checked once
            if key not in seen:
                seen.add(key)
                yield shown


def _ALWAYS(_: str) -> bool:
    return True


def _NEVER(_: str) -> bool:
    return False


def _walk(root: str, suffixes: Tuple[str, ...], respect_gitignore: Union[bool, Callable[[str], bool]],
          warn) -> List[str]:
    if callable(respect_gitignore):
        respects = respect_gitignore
    else:
        respects = _ALWAYS if respect_gitignore else _NEVER
    # With settings per directory, the patterns are read whatever the root's say: a project below
    # may respect them.
    patterns: List[_Rules] = [] if respects is _NEVER else list(_inherited_patterns(root))
    out: List[str] = []
    _walk_dir(root, suffixes, respects, patterns, out, warn, {_identity(os.stat(root)): root})
    return out


def _walk_dir(directory, suffixes, respects: Callable[[str], bool], patterns, out, warn,
              above: Dict[Tuple[int, int], str], entries: Optional[List[os.DirEntry]] = None) -> None:
    """`above`: the directories this walk is inside, by (device, inode), so a link back is seen;
    `respects(directory)`: whether that directory's settings skip what `.gitignore` files ignore;
    `entries`: the directory's listing, when the caller has it."""
    if entries is None:
        entries = _listing(directory)
        if entries is None:
            return
    respect_gitignore = respects(directory)  # for the files here; a directory below asks for itself
    # The listing says whether there is a .gitignore: no failed open in every directory.
    here = _read_gitignore(directory) if respects is not _NEVER and _holds(entries, ".gitignore") else None
    if here:
        patterns = patterns + [here]
    for entry in entries:
        try:
            is_dir = entry.is_dir()  # follows links: a link that resolves to itself raises ELOOP
        except OSError as error:
            if not (respect_gitignore and _ignored(entry.path, False, patterns)):
                warn(entry.path, messages.WALK_SKIPPED.format(why=_unfollowable(error)))
            continue
        if is_dir and entry.name in SKIPPED_DIRS:
            continue
        if (respects(entry.path) if is_dir else respect_gitignore) and _ignored(entry.path, is_dir, patterns):
            continue
        if is_dir:
            try:
                identity = _identity(entry.stat())
            except OSError:
                continue  # gone since it was listed
            if identity in above:
                detail = f"it leads back to {above[identity]}, a directory above it"
                warn(entry.path, messages.WALK_SKIPPED.format(why=messages.SYMLINK_LOOP.format(detail=detail)))
                continue
            listed = _listing(entry.path)
            if listed is None or _holds(listed, "pyvenv.cfg"):  # unreadable, or a virtualenv
                continue
            _walk_dir(entry.path, suffixes, respects, patterns, out, warn, {**above, identity: entry.path}, listed)
        elif entry.name.endswith(suffixes) and _regular_or_dangling(entry):
            out.append(entry.path)


def _listing(directory: str) -> Optional[List[os.DirEntry]]:
    """The directory's entries by name; None when it cannot be listed."""
    try:
        with os.scandir(directory) as found:
            return sorted(found, key=lambda e: e.name)
    except OSError:
        return None


def _holds(entries: List[os.DirEntry], name: str) -> bool:
    return any(entry.name == name for entry in entries)


def _identity(status: os.stat_result) -> Tuple[int, int]:
    return status.st_dev, status.st_ino


def _unfollowable(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return messages.SYMLINK_LOOP.format(detail="too many levels of symbolic links")
    return f"cannot follow it: {error.strerror or error}"


def _regular_or_dangling(entry: os.DirEntry) -> bool:
    """A regular file (through links), or a dangling link, which reading reports as missing;
    not a FIFO, device or socket, which a read could wait on forever."""
    if entry.is_file():  # no system call for a plain file: the directory listing says so
        return True
    try:
        return stat.S_ISREG(entry.stat().st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def path_problem(path: str) -> Optional[str]:
    """Why a path named on the command line cannot be checked, or None if it exists."""
    try:
        os.stat(path)
        return None
    except OSError as error:
        if error.errno == errno.ENOENT:
            return "no such file or directory"
        return _unfollowable(error)


def _inherited_patterns(root: str) -> Iterable[_Rules]:
    """.gitignore files above `root`, up to the repository top (where `.git` is)."""
    chain = []
    directory = os.path.abspath(root)
    while True:
        parent = os.path.dirname(directory)
        if os.path.exists(os.path.join(directory, ".git")) or parent == directory:
            break
        directory = parent
        chain.append(directory)
    for directory in reversed(chain):
        # Paths we test are relative to `root` as given, so express the base the same way.
        base = os.path.relpath(directory, os.path.abspath(root))
        found = _read_gitignore(directory, os.path.join(root, base))
        if found:
            yield found


def _read_gitignore(directory: str, base: Optional[str] = None) -> Optional[_Rules]:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    return _Rules(directory if base is None else base, [p for p in map(_parse, lines) if p is not None])


def _parse(line: str) -> Optional[Tuple[str, bool, bool, bool]]:
    """(glob, anchored, negated, directories only) of a gitignore line; None for a blank or comment."""
    line = line.rstrip()
    if line.endswith("\\"):
        line += " "
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    line = line[1:] if line.startswith("\\") else line
    directories_only = line.endswith("/")
    line = line.rstrip("/")
    anchored = "/" in line
    line = line.lstrip("/")
    if not line:
        return None
    return line, anchored, negated, directories_only


def _glob_to_regex(glob: str) -> str:
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("/**", i) and i + 3 == len(glob):
            out.append("/.*")
            i += 3
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        elif glob[i] == "[":
            end = glob.find("]", i + 1)
            if end == -1:
                out.append(re.escape(glob[i]))
                i += 1
            else:
                body = glob[i + 1 : end].replace("\\", "\\\\")
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = end + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def _ignored(path: str, is_dir: bool, patterns: Sequence[_Rules]) -> bool:
    """Whether `path` is ignored by the patterns of these `.gitignore` files (outermost first):
    the innermost file with a matching pattern decides."""
    for rules in reversed(patterns):
        relative = os.path.relpath(path, rules.base).replace(os.sep, "/")
        if relative.startswith("../") or relative == "..":
            continue
        decided = rules.decide(relative, is_dir)
        if decided is not None:
            return decided
    return False


def glob_patterns(base: str, globs: Iterable[str]) -> List[_Rules]:
    """gitignore-style globs relative to the directory `base`, for settings such as `exclude`; a
    glob may start with `./` (`"./a.py"` is `"/a.py"`: that file of the base directory)."""
    compiled = _Rules(os.path.abspath(base), [p for p in map(_parse, map(_from_base, globs)) if p is not None])
    return [compiled] if compiled else []


def _from_base(glob: str) -> str:
    negated = glob.startswith("!")
    body = glob[1:] if negated else glob
    if not body.startswith("./"):
        return glob
    while body.startswith("./"):
        body = body[2:]
    return ("!" if negated else "") + "/" + body


def matches_globs(path: str, base: str, patterns: Sequence[_Rules]) -> bool:
    """Whether the file `path`, or a directory holding it below `base`, matches, as git decides."""
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(base)).replace(os.sep, "/")
    if relative == ".." or relative.startswith("../"):
        return False
    parts = relative.split("/")
    for depth in range(1, len(parts)):
        if _ignored(os.path.join(base, *parts[:depth]), True, patterns):
            return True
    return _ignored(os.path.join(base, *parts), False, patterns)
