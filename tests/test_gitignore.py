"""`.gitignore` matching (issue 25, item 11): what a walk skips is what real git ignores, for many
patterns of every kind at once, and the patterns of a file are compiled once (the cost of a walk
follows the files, not files x patterns: `benchmarks/gitignore_walk.py`)."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from nnsight_lint.sources import discovery

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

NAMES = ["a", "b", "data", "src", "out", "lib", "x1", "x2", "tmp", "keep"]


def _glob(rng: random.Random) -> str:
    """One gitignore line: literal, wildcard, `?`, classes, `**`, anchored, directory-only, negated."""
    part = lambda: rng.choice([rng.choice(NAMES), rng.choice(NAMES) + "*", "*" + rng.choice(["1", "a", "b"]),  # noqa: E731
                               rng.choice(NAMES)[:1] + "?" + "*", "[abx]*", "[!a]*", "*"])
    shape = rng.randrange(9)
    if shape == 0:
        glob = f"*.{rng.choice(['py', 'pyi', 'ipynb', 'txt'])}"
    elif shape == 1:
        glob = f"{part()}/{part()}"
    elif shape == 2:
        glob = f"/{part()}"
    elif shape == 3:
        glob = f"**/{part()}"
    elif shape == 4:
        glob = f"{part()}/**"
    elif shape == 5:
        glob = f"{part()}/**/{part()}"
    else:
        glob = part()
    if rng.random() < 0.25:
        glob += "/"
    if rng.random() < 0.2:
        glob = "!" + glob
    return glob


def _tree(root: Path, rng: random.Random, files: int) -> None:
    for _ in range(files):
        depth = rng.randrange(1, 4)
        parts = [rng.choice(NAMES) + rng.choice(["", "1", "a", "b"]) for _ in range(depth)]
        name = rng.choice(NAMES) + rng.choice(["", "1", "a", "b"]) + rng.choice([".py", ".py", ".pyi", ".ipynb", ".txt"])
        path = root.joinpath(*parts, name)
        if any(p.is_file() for p in path.parents) or path.is_dir():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")


def _git_kept(root: Path) -> set:
    """The files git does not ignore (`ls-files --others --exclude-standard` of an empty repository)."""
    done = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z"], cwd=root,
                          capture_output=True, check=True)
    return {name for name in done.stdout.decode().split("\0") if name and not name.endswith((".txt", ".gitignore"))}


def _ours(root: Path) -> set:
    return {os.path.relpath(path, root).replace(os.sep, "/") for path in discovery.iter_files([str(root)])}


@pytest.mark.parametrize("seed", range(6))
def test_a_walk_skips_exactly_what_git_ignores(tmp_path, seed):
    rng = random.Random(seed)
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    _tree(root, rng, 300)
    (root / ".gitignore").write_text("\n".join(_glob(rng) for _ in range(60)) + "\n# a comment\n\n")
    for directory in rng.sample(sorted(p for p in root.rglob("*") if p.is_dir()), 3):
        (directory / ".gitignore").write_text("\n".join(_glob(rng) for _ in range(8)) + "\n")
    assert _ours(root) == _git_kept(root)


def test_many_patterns_are_compiled_into_few_lookups(tmp_path):
    """10,000 lines, negations among them: literals and `*suffix`es are dict lookups, whatever
    their number; the last matching line decides."""
    lines = [f"build_{n}/" if n % 3 == 0 else (f"*.ext{n}" if n % 3 == 1 else f"data/file_{n}.csv") for n in range(10_000)]
    lines[5000:5000] = ["!*.ext1", "!build_3/"]
    (tmp_path / ".gitignore").write_text("\n".join(lines) + "\n!keep.ext4\n")
    rules = discovery._read_gitignore(str(tmp_path))
    ignored, directories = rules._matchers[False, False], rules._matchers[False, True]
    assert len(directories.names) == 3334 and len(ignored.paths) == 3333
    assert sum(map(len, ignored.suffixes.values())) == 3333 and ignored.name_regex.regex is None
    assert rules.decide("x/a.ext1", False) is False  # re-included after `*.ext1`
    assert rules.decide("x/a.ext7", False) is True and rules.decide("keep.ext4", False) is False
    assert rules.decide("build_3", True) is False and rules.decide("build_9999", True) is True
    assert rules.decide("build_9999", False) is None
    assert rules.decide("data/file_2.csv", False) is True and rules.decide("sub/data/file_2.csv", False) is None
