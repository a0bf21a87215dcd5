"""`nnsight-lint check --fix` / `--diff`: what the fix writes, byte for byte, and how it reports.

The CLI runs as a real process on files in a temporary directory. `tests/fix_layouts/NAME.in.py`
fixed must equal `NAME.out.py` exactly; encodings and line endings are derived here from inline
sources. Whether the fixed programs run (and give the right gradients) is `test_fix_runtime.py`.
"""
from __future__ import annotations

import os
import re
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import List

import pytest

from nnsight_lint import messages
from nnsight_lint.doors import cli
from nnsight_lint.doors.api import fix_bytes
from nnsight_lint.diagnostics import Diagnostic, Edit, Fix, Position
from nnsight_lint.engine.fixing import (
    MAX_PASSES,
    FixError,
    apply_fixes,
    compose,
    fix_text,
    unified_diff,
)
from tests.support import TWO_INVOKES, TWO_INVOKES_FIXED, run_cli

ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = ROOT / "rules" / "NNL001"
LAYOUTS_DIR = Path(__file__).resolve().parent / "fix_layouts"
MARKER = re.compile(r"#\s*expect:\s*NNL001\s*$", re.MULTILINE)

FIXED = TWO_INVOKES_FIXED
MESSAGE = messages.nnl001("backward()", 5)
BROKEN = TWO_INVOKES + "def f(:\n    pass\n"  # a trace and a backward, so it is parsed, and it does not parse



def listing(directory: Path) -> List[str]:
    return sorted(p.name for p in directory.iterdir())


# -- layouts: exact text, file mode, idempotence, no temporary files ----------------------------------

LAYOUTS = sorted(LAYOUTS_DIR.glob("*.in.py"))
MODE = 0o751


def _stem(layout: Path) -> str:
    return layout.name[: -len(".in.py")]


@pytest.fixture(scope="module")
def fixed_layouts(tmp_path_factory):
    directory = tmp_path_factory.mktemp("layouts")
    for layout in LAYOUTS:
        target = directory / f"{_stem(layout)}.py"
        target.write_bytes(layout.read_bytes())
        target.chmod(MODE)
    first = run_cli("check", "--fix", ".", cwd=directory)
    after_first = {p.name: p.read_bytes() for p in directory.iterdir()}
    second = run_cli("check", "--fix", ".", cwd=directory)
    return SimpleNamespace(directory=directory, first=first, second=second, after_first=after_first)


@pytest.mark.parametrize("layout", LAYOUTS, ids=[_stem(p) for p in LAYOUTS])
def test_layout_is_fixed_to_the_exact_expected_text(layout: Path, fixed_layouts) -> None:
    fixed = fixed_layouts.directory / f"{_stem(layout)}.py"
    expected = layout.with_name(f"{_stem(layout)}.out.py").read_bytes()
    assert fixed_layouts.after_first[fixed.name] == expected
    assert stat.S_IMODE(fixed.stat().st_mode) == MODE


def test_layouts_run_reports_fixes_and_is_idempotent(fixed_layouts) -> None:
    first, second = fixed_layouts.first, fixed_layouts.second
    assert (first.returncode, first.stdout) == (0, "")
    assert re.fullmatch(r"Fixed [1-9][0-9]* problems, 0 remaining\.\n", first.stderr)
    # Fixing a fixed file changes nothing, and nothing but the files is left in the directory.
    assert (second.returncode, second.stdout, second.stderr) == (0, "", "All checks passed.\n")
    assert {p.name: p.read_bytes() for p in fixed_layouts.directory.iterdir()} == fixed_layouts.after_first
    assert listing(fixed_layouts.directory) == sorted(f"{_stem(p)}.py" for p in LAYOUTS)


def test_every_layout_fixture_has_its_expected_output() -> None:
    outputs = sorted(p.name[: -len(".out.py")] for p in LAYOUTS_DIR.glob("*.out.py"))
    assert outputs == [_stem(p) for p in LAYOUTS]
    for layout in LAYOUTS:
        assert layout.read_bytes() != layout.with_name(f"{_stem(layout)}.out.py").read_bytes()


# -- encodings and line endings ------------------------------------------------------------------------

MULTILINE = """\
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(
            None,  # gradient
        )
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward()
"""
MULTILINE_FIXED = MULTILINE.replace("# gradient\n", "# gradient\n            retain_graph=True,\n")
LATIN_1_HEADER = "# -*- coding: latin-1 -*-\n# Größe: café\n"
NON_ASCII_FIRST = '        label = "Größe"; model.lm_head.output.sum().backward()\n'


def _variants():
    one_line = TWO_INVOKES.replace("        model.lm_head.output.sum().backward()\n    with", NON_ASCII_FIRST + "    with")
    one_line_fixed = one_line.replace('"; model.lm_head.output.sum().backward()', '"; model.lm_head.output.sum().backward(retain_graph=True)')
    return {
        "crlf": (MULTILINE.replace("\n", "\r\n").encode(), MULTILINE_FIXED.replace("\n", "\r\n").encode()),
        "bom": (b"\xef\xbb\xbf" + MULTILINE.encode(), b"\xef\xbb\xbf" + MULTILINE_FIXED.encode()),
        "bom-crlf": (
            b"\xef\xbb\xbf" + TWO_INVOKES.replace("\n", "\r\n").encode(),
            b"\xef\xbb\xbf" + FIXED.replace("\n", "\r\n").encode(),
        ),
        "latin-1": ((LATIN_1_HEADER + one_line).encode("latin-1"), (LATIN_1_HEADER + one_line_fixed).encode("latin-1")),
        "utf-8-non-ascii-before-the-call": (one_line.encode(), one_line_fixed.encode()),
        "cr-only": (TWO_INVOKES.replace("\n", "\r").encode(), FIXED.replace("\n", "\r").encode()),
        "no-newline-at-end": (TWO_INVOKES.rstrip("\n").encode(), FIXED.rstrip("\n").encode()),
    }


VARIANTS = _variants()


@pytest.mark.parametrize("name", list(VARIANTS))
def test_encoding_and_line_endings_are_kept(name: str, tmp_path) -> None:
    before, after = VARIANTS[name]
    target = tmp_path / "program.py"
    target.write_bytes(before)
    result = run_cli("check", "--fix", "program.py", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "Fixed 1 problem, 0 remaining.\n")
    assert target.read_bytes() == after
    assert run_cli("check", "--fix", "program.py", cwd=tmp_path).stderr == "All checks passed.\n"
    assert target.read_bytes() == after
    assert listing(tmp_path) == ["program.py"]


def test_stdin_fix_keeps_bytes_too() -> None:
    before, after = VARIANTS["latin-1"]
    result = run_cli("check", "--fix", "-", stdin=before)
    assert (result.returncode, result.stdout, result.stderr) == (0, after, b"Fixed 1 problem, 0 remaining.\n")


# -- the corpus ----------------------------------------------------------------------------------------

CASES = sorted(CASES_DIR.glob("*.py"))


def markers(path: Path) -> int:
    return len(MARKER.findall(path.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def fixed_corpus(tmp_path_factory):
    directory = tmp_path_factory.mktemp("corpus")
    for case in CASES:
        (directory / case.name).write_bytes(case.read_bytes())
    # NNL001's corpus: other rules' findings there (NNL005 on generate/no_grad traces) have no fix.
    only = ("--select", "NNL001")
    first = run_cli("check", "--fix", *only, ".", cwd=directory)
    after_first = {p.name: p.read_bytes() for p in directory.iterdir()}
    second = run_cli("check", "--fix", *only, ".", cwd=directory)
    recheck = run_cli("check", "--no-cache", *only, ".", cwd=directory)
    return SimpleNamespace(directory=directory, first=first, second=second, recheck=recheck, after_first=after_first)


def test_corpus_fix_run(fixed_corpus) -> None:
    total = sum(markers(case) for case in CASES)
    assert (fixed_corpus.first.returncode, fixed_corpus.first.stdout) == (0, "")
    assert fixed_corpus.first.stderr == f"Fixed {total} problems, 0 remaining.\n"
    assert (fixed_corpus.recheck.returncode, fixed_corpus.recheck.stdout) == (0, "")
    # Idempotence: the second run finds nothing to do and writes nothing.
    assert fixed_corpus.second.stderr == "All checks passed.\n"
    assert {p.name: p.read_bytes() for p in fixed_corpus.directory.iterdir()} == fixed_corpus.after_first
    assert listing(fixed_corpus.directory) == sorted(case.name for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_corpus_case_gets_one_fix_per_marker_and_unmarked_cases_stay_byte_identical(case: Path, fixed_corpus) -> None:
    written = fixed_corpus.after_first[case.name]
    if not markers(case):
        assert written == case.read_bytes()
        return
    result = fix_bytes(case.read_bytes(), case.name)
    assert (result.error, result.fixed, result.remaining) == (None, markers(case), [])
    assert result.data == written  # the CLI writes exactly what the API computes


# -- --diff, stdin, summary, exit codes, [*] ----------------------------------------------------------

DIFF = """\
--- a/bad.py
+++ b/bad.py
@@ -1,5 +1,5 @@
 with model.trace() as tracer:
     with tracer.invoke("hello world"):
-        model.lm_head.output.sum().backward()
+        model.lm_head.output.sum().backward(retain_graph=True)
     with tracer.invoke("the cat sat"):
         model.lm_head.output.sum().backward()
"""


def test_diff_prints_the_exact_diff_and_writes_nothing(tmp_path) -> None:
    (tmp_path / "bad.py").write_text(TWO_INVOKES)
    (tmp_path / "good.py").write_text(FIXED)
    result = run_cli("check", "--diff", ".", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (1, DIFF, "Would fix 1 problem, 0 remaining.\n")
    assert (tmp_path / "bad.py").read_text() == TWO_INVOKES
    assert listing(tmp_path) == ["bad.py", "good.py"]

    clean = run_cli("check", "--diff", "good.py", cwd=tmp_path)
    assert (clean.returncode, clean.stdout, clean.stderr) == (0, "", "All checks passed.\n")
    assert run_cli("check", "--diff", "--exit-zero", "bad.py", cwd=tmp_path).returncode == 0


def test_diff_of_a_crlf_file_without_final_newline(tmp_path) -> None:
    (tmp_path / "bad.py").write_bytes(TWO_INVOKES.rstrip("\n").replace("\n", "\r\n").encode())
    result = run_cli("check", "--diff", "bad.py", cwd=tmp_path, stdin=b"")
    assert result.returncode == 1
    assert result.stdout == (
        b"--- a/bad.py\n"
        b"+++ b/bad.py\n"
        b"@@ -1,5 +1,5 @@\n"
        b" with model.trace() as tracer:\r\n"
        b'     with tracer.invoke("hello world"):\r\n'
        b"-        model.lm_head.output.sum().backward()\r\n"
        b"+        model.lm_head.output.sum().backward(retain_graph=True)\r\n"
        b'     with tracer.invoke("the cat sat"):\r\n'
        b"         model.lm_head.output.sum().backward()\n"
        b"\\ No newline at end of file\n"
    )


def test_diff_from_stdin_names_the_stdin_filename() -> None:
    result = run_cli("check", "--diff", "-", "--stdin-filename", "bad.py", stdin=TWO_INVOKES)
    assert (result.returncode, result.stdout) == (1, DIFF)


def test_stdin_fix_prints_the_fixed_source_and_reports_on_stderr() -> None:
    result = run_cli("check", "--fix", "-", stdin=TWO_INVOKES)
    assert (result.returncode, result.stdout, result.stderr) == (0, FIXED, "Fixed 1 problem, 0 remaining.\n")
    clean = run_cli("check", "--fix", "-", stdin=FIXED)
    assert (clean.returncode, clean.stdout, clean.stderr) == (0, FIXED, "All checks passed.\n")


def test_stdin_fix_of_a_file_that_does_not_parse_prints_it_unchanged() -> None:
    result = run_cli("check", "--fix", "-", "--stdin-filename", "cell.py", stdin=BROKEN)
    assert (result.returncode, result.stdout) == (1, BROKEN)
    assert result.stderr.startswith("cell.py:6:7: NNL000 invalid syntax:")
    assert result.stderr.endswith("Found 1 problem.\n")


def test_fix_summary_remaining_findings_and_exit_codes(tmp_path) -> None:
    (tmp_path / "a_broken.py").write_text(BROKEN)
    (tmp_path / "b_bad.py").write_text(TWO_INVOKES)
    result = run_cli("check", "--fix", ".", cwd=tmp_path)
    assert result.returncode == 1  # something unfixable remains
    assert result.stdout.startswith("a_broken.py:6:7: NNL000 invalid syntax:")
    assert result.stderr == "Fixed 1 problem, 1 remaining.\n"
    assert (tmp_path / "b_bad.py").read_text() == FIXED
    quiet = run_cli("check", "--fix", "--quiet", "a_broken.py", cwd=tmp_path)
    assert (quiet.returncode, quiet.stderr) == (1, "")


def test_exit_non_zero_on_fix(tmp_path) -> None:
    (tmp_path / "bad.py").write_text(TWO_INVOKES)
    first = run_cli("check", "--fix", "--exit-non-zero-on-fix", "bad.py", cwd=tmp_path)
    assert (first.returncode, first.stderr) == (1, "Fixed 1 problem, 0 remaining.\n")
    second = run_cli("check", "--fix", "--exit-non-zero-on-fix", "bad.py", cwd=tmp_path)
    assert (second.returncode, second.stderr) == (0, "All checks passed.\n")
    (tmp_path / "bad.py").write_text(TWO_INVOKES)
    forced = run_cli("check", "--fix", "--exit-non-zero-on-fix", "--exit-zero", "bad.py", cwd=tmp_path)
    assert forced.returncode == 0  # --exit-zero forces 0
    assert (tmp_path / "bad.py").read_text() == FIXED


def test_check_marks_fixable_findings_and_counts_them(tmp_path) -> None:
    (tmp_path / "bad.py").write_text(TWO_INVOKES)
    result = run_cli("check", "bad.py", cwd=tmp_path)
    assert result.stdout == f"bad.py:3:36: NNL001 [*] {MESSAGE}\n"
    assert result.stderr == "Found 1 problem.\n[*] 1 fixable with `nnsight-lint check --fix`.\n"


def test_noqa_finding_is_neither_reported_nor_fixed(tmp_path) -> None:
    source = TWO_INVOKES.replace("backward()\n    with", "backward()  # noqa: NNL001\n    with")
    (tmp_path / "kept.py").write_text(source)
    result = run_cli("check", "--fix", "kept.py", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "All checks passed.\n")
    assert (tmp_path / "kept.py").read_text() == source


# -- atomic writes -------------------------------------------------------------------------------------


def _no_room_to_write() -> None:
    """A file-size limit of 0 bytes: every write to a regular file fails with EFBIG, for root too."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # fail the write instead of killing the process
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_a_file_that_cannot_be_written_is_left_untouched(tmp_path) -> None:
    target = tmp_path / "bad.py"
    target.write_text(TWO_INVOKES)
    target.chmod(0o640)
    result = run_cli("check", "--fix", "bad.py", cwd=tmp_path, preexec_fn=_no_room_to_write)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr == (
        "error: bad.py: cannot write: File too large; the file was left unchanged\n"
        "Found 1 problem. 1 file could not be fixed.\n"
    )
    assert result.stdout == f"bad.py:3:36: NNL001 [*] {MESSAGE}\n"  # still there, still fixable
    assert target.read_text() == TWO_INVOKES
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert listing(tmp_path) == ["bad.py"]  # the temporary file is gone


def test_a_path_under_proc_cannot_be_replaced(tmp_path) -> None:
    # /proc/self/fd/0 is the pipe the source comes in on: only regular files are read (a pipe could
    # block forever), so it is refused before anything is read or written, for root too.
    result = subprocess.run(
        [sys.executable, "-m", "nnsight_lint", "check", "--fix", "/proc/self/fd/0"],
        input=TWO_INVOKES,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: /proc/self/fd/0: cannot read: a named pipe (FIFO), not a regular file\n")


def test_a_symlink_stays_a_symlink_and_its_target_is_fixed(tmp_path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "bad.py").write_text(TWO_INVOKES)
    (tmp_path / "link.py").symlink_to(real / "bad.py")
    result = run_cli("check", "--fix", "link.py", cwd=tmp_path)
    assert result.returncode == 0
    assert (tmp_path / "link.py").is_symlink()
    assert (real / "bad.py").read_text() == FIXED
    assert listing(real) == ["bad.py"] and listing(tmp_path) == ["link.py", "real"]


# -- the fixing loop: reverting a fix that breaks syntax, unsafe fixes, bounded passes ------------------


def _finding(edits, line=1, safe=True, code="NNL999") -> Diagnostic:
    start = Position(line, 1)
    return Diagnostic("x.py", code, "test finding", start, start, Fix(tuple(edits), safe))


def _once(diagnostic: Diagnostic, until: str):
    """A lint function that reports `diagnostic` until the text contains `until`."""
    return lambda text: [] if until in text else [diagnostic]


def test_a_fix_that_breaks_the_syntax_is_reverted() -> None:
    text = "x = f(a)\ny = 2\n"
    breaking = _finding([Edit(Position(2, 5), Position(2, 5), "(")], line=2)
    with pytest.raises(FixError, match=r"NNL999 at line 2 would produce code that does not parse"):
        fix_text(text, _once(breaking, "(2"))


def test_a_fix_only_cpython_rejects_is_reverted_too() -> None:
    # libcst parses a repeated keyword argument; CPython's compiler does not.
    text = "x = f(a=1)\n"
    repeat = _finding([Edit(Position(1, 10), Position(1, 10), ", a=2")])
    with pytest.raises(FixError, match="keyword argument repeated"):
        fix_text(text, _once(repeat, "a=2"))
    # A file CPython already rejects is judged by libcst alone: the fix is not blamed for it.
    broken_already = "x = f(a=1, a=1)\n"
    fine = _finding([Edit(Position(1, 1), Position(1, 2), "z")])
    assert fix_text(broken_already, _once(fine, "z =")).text == "z = f(a=1, a=1)\n"


def _breaking_edits(call, context):
    """Stands in for NNL001's `_add_keyword`: an edit that breaks the syntax (no real one does)."""
    end = context.span(call)[1]
    return (Edit(end, end, "("),)


@pytest.mark.parametrize("select", [[], ["--select", "NNL001"]], ids=["all-rules", "without-NNL000"])
def test_the_cli_reports_a_reverted_fix_as_an_internal_error(select, tmp_path, monkeypatch, capsys) -> None:
    from nnsight_lint.rules import nnl001

    monkeypatch.setattr(nnl001, "_add_keyword", _breaking_edits)
    target = tmp_path / "bad.py"
    target.write_text(TWO_INVOKES)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "--fix", *select, "bad.py"]) == 2
    out, err = capsys.readouterr()
    assert re.fullmatch(
        r"error: bad\.py: internal error: the fix for NNL001 at line 3 would produce code that does not parse "
        r"\(.+\); the file was left unchanged\nFound 1 problem\. 1 file could not be fixed\.\n",
        err,
    ), err
    assert out == f"bad.py:3:36: NNL001 [*] {MESSAGE}\n"
    assert target.read_text() == TWO_INVOKES
    assert listing(tmp_path) == ["bad.py"]


def test_unsafe_fixes_apply_only_when_asked() -> None:
    unsafe = _finding([Edit(Position(1, 1), Position(1, 2), "y")], safe=False)
    lint = _once(unsafe, "y =")
    kept = fix_text("x = 1\n", lint)
    assert (kept.text, kept.fixed, kept.remaining) == ("x = 1\n", 0, [unsafe])
    applied = fix_text("x = 1\n", lint, unsafe=True)
    assert (applied.text, applied.fixed, applied.remaining) == ("y = 1\n", 1, [])


def test_fixing_stops_after_a_bounded_number_of_passes() -> None:
    grows = _finding([Edit(Position(1, 5), Position(1, 5), "1+")])  # a fix that never settles
    outcome = fix_text("x = 1\n", lambda text: [grows])
    assert (outcome.text, outcome.fixed, outcome.remaining) == ("x = " + "1+" * MAX_PASSES + "1\n", MAX_PASSES, [grows])


def test_apply_fixes_takes_one_copy_of_a_repeated_fix_and_defers_overlaps() -> None:
    text = "f.b(None, False)\n"

    def at(column: int) -> Position:
        return Position(1, column + 1)

    flip = Fix((Edit(at(10), at(15), "True"),))
    inside = Fix((Edit(at(12), at(12), "x"),))  # an insertion inside the flipped text
    overlapping = Fix((Edit(at(13), at(16), ")"),))
    assert apply_fixes(text, [flip, flip, inside, overlapping]) == ("f.b(None, True)\n", 2)
    same_point = Fix((Edit(at(4), at(4), "g, "),)), Fix((Edit(at(4), at(4), "h, "),))
    assert apply_fixes(text, same_point)[1] == 1  # two insertions at one point: their order is a guess


def test_a_fix_over_several_parts_is_taken_whole_or_not_at_all() -> None:
    """A notebook's fixes edit cells: one whose edit in some cell overlaps a fix already taken there
    waits for the next pass with ALL its edits, never half applied (half of NNL101's `(...).save()`
    inside NNL206's rewritten line would not parse)."""
    cells = {1: "with m.trace(): h = -x\n", 2: "print(h)\n"}
    own_line = [(1, Edit(Position(1, 16), Position(1, 23), "\n    h = -x"))]
    save = [(1, Edit(Position(1, 21), Position(1, 21), "(")), (1, Edit(Position(1, 23), Position(1, 23), ").save()"))]
    elsewhere = [(2, Edit(Position(1, 7), Position(1, 8), "g"))]
    texts, applied = compose(cells, [save, own_line, elsewhere])  # in document order: own_line first
    assert (texts, applied) == ({1: "with m.trace():\n    h = -x\n", 2: "print(g)\n"}, 2)
    texts, applied = compose(cells, [own_line, save + elsewhere])  # save waits, with its edit in cell 2
    assert (texts, applied) == ({1: "with m.trace():\n    h = -x\n", 2: "print(h)\n"}, 1)
    texts, applied = compose(cells, [save, elsewhere])
    assert (texts, applied) == ({1: "with m.trace(): h = (-x).save()\n", 2: "print(g)\n"}, 2)


def test_unified_diff_splits_lines_where_python_does() -> None:
    before = "a = 1  # \x0c form feed\nb = 2\n"
    assert unified_diff("m.py", before, before.replace("b = 2", "b = 3")).split("\n")[3:] == [
        " a = 1  # \x0c form feed",
        "-b = 2",
        "+b = 3",
        "",
    ]


def test_nnl001_docs_say_the_fix_is_safe_for_gradients() -> None:
    from nnsight_lint import rules

    page = rules.explanation("NNL001")
    safety = page.split("## Fix safety\n", 1)[1].split("\n## ", 1)[0]
    assert "It is safe" in safety and "peak memory" in safety and "never changes a gradient" in safety


@pytest.mark.parametrize("unit", ["\t", "  ", "    "], ids=["tab", "two spaces", "four spaces"])
def test_nnl206_fix_indents_as_the_file_does(unit: str) -> None:
    """The body moved off the `with` line is indented with the file's own unit, read from the whole
    file: here its only indented block is a helper the slicing leaves out of the parsed text."""
    source = (
        'with model.trace("hello world"): h = model.transformer.h[0].output.save()\n'
        "print(h.shape)\n\n\ndef unrelated():\n" + unit + "return 1\n"
    )
    fixed = fix_bytes(source.encode(), "m.py").after
    assert fixed.startswith('with model.trace("hello world"):\n' + unit + "h = model.transformer.h[0].output.save()\n")
