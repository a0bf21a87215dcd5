"""The fuzz suite's properties, as plain functions of one input: tests/test_fuzz.py binds them to
hypothesis with CI-sized settings, scripts/fuzz.py with many more examples.

Each `check_*` raises AssertionError (with what differed) when its property fails.
"""
from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import tokenize
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import libcst as cst

from nnsight_lint import messages
from nnsight_lint.doors.api import fix_bytes
from nnsight_lint.diagnostics import Diagnostic, Position
from nnsight_lint.engine.lint import LintOptions, lint_source
from nnsight_lint.engine.fixing import apply_fixes
from nnsight_lint.engine.text import LINE_BREAK, decode, split_lines
from tests.support import run_cli

FREED_GRAPH = "Trying to backward through the graph a second time"
NNL001_ONLY = LintOptions(select=("NNL001",))
INVALID_SYNTAX = messages.NNL000_SYNTAX.split(":")[0]  # "invalid syntax", alone or with a detail


# --- one file through the library: lint, fix, fix again -----------------------------------------------


def check_inside(position: Position, lines: Sequence[str], what: str) -> None:
    assert 1 <= position.line <= len(lines), f"{what} on line {position.line} of a {len(lines)}-line file"
    width = len(lines[position.line - 1])
    where = f"{position.line}:{position.column}"
    assert 1 <= position.column <= width + 1, f"{what} at {where}, the line has {width} characters"


def check_fix_properties(data: bytes, path: str = "program.py") -> List[Diagnostic]:
    """Lint and fix one file's bytes through the library; returns the findings. Checks: no exception
    escapes; findings and edits lie inside the file; a file CPython compiles is not called invalid
    syntax; the fixed text parses with libcst and CPython (when the file did) and keeps the file's
    encoding and line breaks; fixing again changes nothing; no fixable finding survives; a file
    without findings comes back byte for byte."""
    found = lint_source(data, path)
    compiles = _compiles(data)
    if compiles:
        lies = [d for d in found if d.code == "NNL000" and d.message.startswith(INVALID_SYNTAX)]
        assert not lies, f"CPython compiles the file, yet: {lies[0].line}:{lies[0].column} {lies[0].message}"
    try:
        text, encoding = decode(data)
    except (SyntaxError, UnicodeDecodeError, LookupError):  # CPython cannot read it either
        assert fix_bytes(data, path).data == data, "a file that cannot be decoded was changed"
        return found
    lines = split_lines(text)
    for d in found:
        check_inside(d.start, lines, f"{d.code} start")
        check_inside(d.end, lines, f"{d.code} end")
        assert d.start <= d.end, f"{d.code} ends before it starts"
        for edit in d.fix.edits if d.fix else ():
            check_inside(edit.start, lines, "edit start")
            check_inside(edit.end, lines, "edit end")
            assert edit.start <= edit.end, "edit ends before it starts"

    result = fix_bytes(data, path)
    assert result.error is None, f"--fix refused the file: {result.error}"
    fixed = result.data
    if not found:
        assert fixed == data, "a file without findings changed"
    fixed_text, fixed_encoding = decode(fixed)
    assert fixed_encoding == encoding, f"encoding {encoding} became {fixed_encoding}"
    assert fixed.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf"), "the BOM changed"
    breaks = set(LINE_BREAK.findall(text))
    assert set(LINE_BREAK.findall(fixed_text)) <= (breaks or {"\n"}), "the fix brought in other line breaks"
    assert fixed_text == result.after
    if _parses(data):
        assert _parses(fixed), f"libcst does not parse the fixed file:\n{fixed_text}"
    if compiles:
        assert _compiles(fixed), f"the fixed file does not compile:\n{fixed_text}"

    again = fix_bytes(fixed, path)
    assert again.error is None, f"the second --fix refused the file: {again.error}"
    assert again.data == fixed and again.fixed == 0, "a second --fix changed the file"
    left = [d for d in lint_source(fixed, path) if d.fix is not None and d.fix.safe]
    assert not left, f"fixable findings survive --fix: {left}"
    return found


def _parses(data: bytes) -> bool:
    try:
        cst.parse_module(data)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError):
        return False
    return True


def _compiles(data: bytes) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, "<fuzz>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


# --- a tree through the CLI: jobs, cache, JSON edits, --fix ------------------------------------------


def apply_json_fixes(data: bytes, items: Sequence[dict]) -> bytes:
    """What an editor or CI client does with `--output-format json`: decode the file as Python
    reads it, turn each safe fix's 1-based row/column (characters, lines broken at \\r\\n, \\r or
    \\n) into offsets, apply the edits from the end backwards, encode back."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]
    edits = set()
    for item in items:
        if item["fix"] and item["fix"]["applicability"] == "safe":
            for edit in item["fix"]["edits"]:
                start, end = edit["location"], edit["end_location"]
                edits.add(
                    (
                        starts[start["row"] - 1] + start["column"] - 1,
                        starts[end["row"] - 1] + end["column"] - 1,
                        edit["content"],
                    )
                )
    for start, end, content in sorted(edits, reverse=True):
        text = text[:start] + content + text[end:]
    return text.encode(encoding)


def _read_tree(root: Path) -> Dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.iterdir()) if p.is_file()}


def check_cli_tree(root: Path, files: Sequence[bytes]) -> None:
    """Write `files` as a tree under `root` and run the real CLI on it. Checks: `--jobs 1`,
    `--jobs 2`, a first and a cached run print the same, in concise and JSON formats; the JSON
    edits, applied by `apply_json_fixes`, give what `--fix` writes; a second `--fix` changes nothing."""
    tree, cache = root / "tree", root / "cache"
    tree.mkdir()
    for number, data in enumerate(files):
        (tree / f"m{number}.py").write_bytes(data)
    before = _read_tree(tree)

    def check(*args):
        done = run_cli("check", *args, "tree", cwd=root)
        assert done.returncode in (0, 1), f"exit {done.returncode}: {done.stderr}"
        return done.returncode, done.stdout, done.stderr

    for format in ("concise", "json"):
        runs = {
            "--jobs 1": check("--output-format", format, "--no-cache", "--jobs", "1"),
            "--jobs 2": check("--output-format", format, "--no-cache", "--jobs", "2"),
            "first cached": check("--output-format", format, "--cache-dir", str(cache / format), "--jobs", "2"),
            "cached": check("--output-format", format, "--cache-dir", str(cache / format), "--jobs", "1"),
        }
        first = runs["--jobs 1"]
        for name, run in runs.items():
            assert run == first, f"{format}: {name} printed\n{run}\nbut --jobs 1 printed\n{first}"
    assert _read_tree(tree) == before, "checking wrote to the tree"

    items = json.loads(first[1])["findings"]
    by_file: Dict[str, List[dict]] = {}
    for item in items:
        by_file.setdefault(os.path.basename(item["filename"]), []).append(item)
    expected = {name: apply_json_fixes(data, by_file.get(name, [])) for name, data in before.items()}

    done = run_cli("check", "--fix", "--no-cache", "tree", cwd=root)
    assert done.returncode in (0, 1), f"--fix exit {done.returncode}: {done.stderr}"
    fixed = _read_tree(tree)
    for name in before:
        assert fixed[name] == expected[name], (
            f"{name}: --fix wrote\n{fixed[name]!r}\nthe JSON edits give\n{expected[name]!r}"
        )
    done = run_cli("check", "--fix", "--no-cache", "tree", cwd=root)
    assert done.returncode in (0, 1), f"second --fix exit {done.returncode}: {done.stderr}"
    assert _read_tree(tree) == fixed, "a second --fix changed the tree"
    assert "Fixed" not in done.stderr and done.stderr.rstrip().endswith(("All checks passed.", "problem.", "problems.")), done.stderr


# --- the differential property: the linter against torch -------------------------------------------


class InvalidProgram(Exception):
    """The program failed for another reason than a freed graph: the generator's fault, or nnsight's."""


@dataclass
class Verdict:
    """One generated program, linted and run."""

    sites: int
    flagged: List[int] = field(default_factory=list)  # lines of the NNL001 findings
    runs: int = 0
    failed_unfixed: bool = False  # the program as generated hit torch's freed-graph error
    problem: Optional[str] = None  # why linter and torch disagree; None: they agree

    @property
    def agrees(self) -> bool:
        return self.problem is None


def run_program(text: str, directory: Path, model, flags: Sequence[bool]) -> bool:
    """Run `text` from a real file (nnsight reads a with block's source back by file name) with the
    tiny model as `model` and `FLAG0`... bound; True if it ran clean, False on torch's freed-graph
    error. Any other error raises InvalidProgram."""
    path = directory / f"program_{hashlib.sha1(text.encode()).hexdigest()[:16]}.py"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    namespace = {"__name__": "__main__", "__file__": str(path), "model": model}
    namespace.update((f"FLAG{number}", value) for number, value in enumerate(flags))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # create_graph=True warns about a reference cycle
            exec(compile(text, str(path), "exec"), namespace)
        return True
    except RuntimeError as error:
        if FREED_GRAPH in str(error):
            return False
        raise InvalidProgram(f"{type(error).__name__}: {error}") from error
    except Exception as error:
        raise InvalidProgram(f"{type(error).__name__}: {error}") from error
    finally:
        for parameter in model.parameters():
            parameter.grad = None


def judge(text: str, flags: int, sites: int, directory: Path, model) -> Verdict:
    """Does NNL001 flag exactly the backward calls whose missing `retain_graph=True` makes the
    program fail? Over every value of its `FLAGk` branch conditions (which the linter cannot see):

    - sufficient: the program our fixer writes runs clean under every assignment;
    - necessary: for each finding, the program with every OTHER finding fixed fails under some
      assignment (so no call is flagged that could be left alone).
    """
    found = lint_source(text, "program.py", NNL001_ONLY)
    verdict = Verdict(sites, [d.line for d in found])
    assignments = list(itertools.product((False, True), repeat=flags))
    outcomes: Dict[tuple, bool] = {}

    def clean_always(variant: str) -> Optional[Sequence[bool]]:
        """None if `variant` runs clean under every assignment, else one that fails."""
        for assignment in assignments:
            if (variant, assignment) not in outcomes:
                verdict.runs += 1
                outcomes[variant, assignment] = run_program(variant, directory, model, assignment)
            if not outcomes[variant, assignment]:
                return assignment
        return None

    verdict.failed_unfixed = clean_always(text) is not None
    fixed = fix_bytes(text.encode(), "program.py", NNL001_ONLY)
    assert fixed.error is None, fixed.error
    failing = clean_always(fixed.after)
    if failing is not None:
        verdict.problem = f"the fixed program still fails (FLAGs {failing}): a needed retain_graph=True is not flagged"
        return verdict
    for finding in found:
        others = apply_fixes(text, [d.fix for d in found if d is not finding])[0]
        if clean_always(others) is None:
            verdict.problem = f"line {finding.line} is flagged, but the program runs clean without its fix"
            return verdict
    return verdict


# --- the fix against the hand-fixed program, on torch ------------------------------------------------


def run_for_result(cells: Sequence[str], name: str, directory: Path, model, flags: Sequence[bool]):
    """Run the code `cells` in order in one namespace (one cell: a file), each from a file of its
    own (nnsight reads a block's source back by file name), with the tiny model as `model` and
    `FLAG0`... bound; ("ok", RESULT) or ("error", its type and message)."""
    import linecache

    namespace = {"__name__": "__main__", "model": model}
    namespace.update((f"FLAG{number}", value) for number, value in enumerate(flags))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for number, cell in enumerate(cells, start=1):
                path = directory / f"{name}_{number}_{hashlib.sha1(cell.encode()).hexdigest()[:16]}.py"
                if not path.exists():
                    path.write_text(cell, encoding="utf-8")
                linecache.checkcache(str(path))
                exec(compile(cell, str(path), "exec"), namespace)
        return "ok", namespace.get("RESULT")
    except Exception as error:  # the comparison says whether this error is right
        return "error", f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    finally:
        for parameter in model.parameters():
            parameter.grad = None


def top_level_cells(text: str) -> List[str]:
    """The program as notebook cells: one per top-level statement."""
    import ast

    lines = text.splitlines(keepends=True)
    starts = [statement.lineno for statement in ast.parse(text).body]
    cuts = [1] + starts[1:] + [len(lines) + 1]
    return ["".join(lines[a - 1 : b - 1]) for a, b in zip(cuts, cuts[1:]) if b > a]


def check_fix_against_reference(program, directory: Path, model, run_notebook: bool = True) -> None:
    """The fixer's output, as a file and as a notebook split at its top-level statements, computes
    what the hand-fixed reference computes (the same RESULT tensor) under every value of its FLAGs;
    the wrong program is flagged and, fixed, is left without a finding of its rule. `run_notebook`:
    also run the fixed cells one by one (their text is the fixed file's in any case)."""
    import torch

    from nnsight_lint.sources import source as sources
    from tests.test_notebooks import code, notebook

    options = LintOptions()
    rule = program.rule
    assert any(d.code == rule for d in lint_source(program.wrong, "program.py", options)), f"not flagged: {program}"
    fixed_file = sources.of(program.wrong, "program.py").fix(options)
    assert fixed_file.error is None, fixed_file.error
    cells = top_level_cells(program.wrong)
    document = notebook(*(code(cell) for cell in cells))
    fixed_notebook = sources.of(document, "program.ipynb").fix(options)
    assert fixed_notebook.error is None, fixed_notebook.error
    fixed_cells = [c["source"] for c in json.loads(fixed_notebook.after)["cells"]]
    for form, fixed in (("file", fixed_file), ("notebook", fixed_notebook)):
        left = [d for d in fixed.remaining if d.code == rule]
        assert not left, f"{program} ({form}): left after --fix: {[d.message for d in left]}"
    assert "".join(fixed_cells) == fixed_file.after, f"{program}: the notebook was fixed otherwise than the file"
    tag = hashlib.sha1(program.wrong.encode()).hexdigest()[:10]
    for flags in itertools.product((False, True), repeat=program.flags):
        expected = run_for_result([program.reference], f"reference_{tag}", directory, model, flags)
        assert expected[0] == "ok", f"{program}: the reference fails ({expected[1]}) under FLAGs {flags}"
        forms = [("file", [fixed_file.after])] + ([("notebook", fixed_cells)] if run_notebook else [])
        for form, texts in forms:
            got = run_for_result(texts, f"fixed_{form}_{tag}", directory, model, flags)
            same = got[0] == "ok" and isinstance(got[1], torch.Tensor) and got[1].shape == expected[1].shape \
                and torch.equal(got[1], expected[1])
            assert same, f"{program} ({form}), FLAGs {flags}: the fixed program gives {got[1]!r:.200}\n{''.join(texts)}"
