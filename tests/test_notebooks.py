"""Notebooks (`.ipynb`): found, linted by code cell, fixed in place, and run for real.

- Every `rules/NNL001` case becomes two notebooks: the whole program in one cell, and the program
  split into one cell per top-level statement (so helpers sit in earlier cells than the traces that
  call them). On both, the findings equal the `# expect:` markers, mapped to (cell, line).
- All of them are fixed by one real `nnsight-lint check --fix` run, then executed cell by cell in a
  Jupyter kernel (nbclient + ipykernel; the first cell builds the tiny model): fixed notebooks run
  clean, unfixed marked ones die with torch's freed-graph error. Without nbclient or ipykernel the
  cells run in order in one namespace instead.
- `tests/notebooks/magics.ipynb` holds magics, shell escapes, empty cells, markdown and raw cells with
  code-like text, non-ASCII text and both `source` forms; `--fix` must turn it into exactly
  `magics.fixed.ipynb`, byte for byte.
"""
from __future__ import annotations

import ast
import json
import linecache
import os
import shutil
from pathlib import Path
from typing import List, Optional

import pytest

from nnsight_lint import messages
from nnsight_lint.doors.api import fix_bytes, lint_file
from nnsight_lint.sources.notebook import mask
from tests.support import TWO_INVOKES, run_cli
from tests.test_rule_cases import expected_findings
from tests.test_rule_cases_runtime import FREED_GRAPH, runtime_raises

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "rules" / "NNL001").glob("*.py"))
FIXTURES = Path(__file__).resolve().parent / "notebooks"

SETUP = (
    # One kernel runs every notebook: start each from an empty namespace. (`%reset -f` would do,
    # but it collects garbage each time, which makes the suite six times slower.)
    "%reset_selective -f ^(?!_)(?!(In|Out|get_ipython|exit|quit|open)\\b)\n"
    "import sys\n"
    f"sys.path.insert(0, {str(ROOT)!r})\n"
    "from tests.tiny_model import tiny_model\n"
    "model = tiny_model()\n"
)


# --- building notebooks ----------------------------------------------------------------------


def code(source, **extra) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source, **extra}


def markdown(source) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def notebook(*cells: dict, **metadata) -> str:
    """nbformat 4 JSON as Jupyter writes it (indent 1, sorted keys, trailing newline)."""
    document = {"cells": list(cells), "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def split_statements(source: str) -> List[str]:
    """One chunk per top-level statement (decorators and the lines after it go with it)."""
    lines = source.splitlines(keepends=True)
    starts = [min([s.lineno] + [d.lineno for d in getattr(s, "decorator_list", [])]) for s in ast.parse(source).body]
    cuts = [1] + starts[1:] + [len(lines) + 1]
    return ["".join(lines[a - 1 : b - 1]) for a, b in zip(cuts, cuts[1:]) if b > a]


def case_notebook(case: Path, form: str) -> str:
    source = case.read_text(encoding="utf-8")
    chunks = [source] if form == "one-cell" else split_statements(source)
    # Split cells use the list-of-lines form, one cell keeps a single string: both are nbformat.
    cells = [code(chunk if form == "one-cell" else chunk.splitlines(keepends=True)) for chunk in chunks]
    return notebook(markdown(f"# {case.stem}\n\n" + "```python\n" + TWO_INVOKES + "```"), code(SETUP), *cells)


def code_sources(text: str) -> List[str]:
    cells = json.loads(text)["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def expected_in_cells(text: str):
    """(cell, line, code) of every `# expect:` marker, cells numbered among code cells from 1."""
    return {(n, line, code) for n, source in enumerate(code_sources(text), start=1) for line, code in expected_findings(source)}


def found_in_cells(path: Path):
    result = lint_file(str(path))
    assert result.error is None, result.error
    return {(d.cell, d.line, d.code) for d in result.diagnostics}



FORMS = ("one-cell", "split")
CASE_IDS = [f"{case.stem}[{form}]" for case in CASES for form in FORMS]


@pytest.fixture(scope="module")
def case_notebooks(tmp_path_factory):
    """All case notebooks twice: as written (`unfixed/`) and after one real `check --fix` (`fixed/`)."""
    base = tmp_path_factory.mktemp("case_notebooks")
    for kind in ("unfixed", "fixed"):
        (base / kind).mkdir()
        for case in CASES:
            for form in FORMS:
                (base / kind / f"{case.stem}[{form}].ipynb").write_text(case_notebook(case, form), encoding="utf-8")
    shutil.copy(FIXTURES / "magics.ipynb", base / "fixed" / "magics.ipynb")
    shutil.copy(FIXTURES / "magics.ipynb", base / "unfixed" / "magics.ipynb")
    # NNL001's corpus: other rules' findings there (NNL005 on generate/no_grad traces) have no fix.
    result = run_cli("check", "--fix", "--select", "NNL001", "fixed", cwd=base)
    assert "Traceback" not in result.stderr and result.returncode == 0, result.stderr
    return base


# --- findings equal the markers --------------------------------------------------------------


def test_every_case_is_split_into_several_cells_somewhere():
    split = [case for case in CASES if len(split_statements(case.read_text(encoding="utf-8"))) >= 3]
    assert len(split) >= 20
    # A helper defined in an earlier cell than the trace that calls it.
    helper = split_statements((ROOT / "rules" / "NNL001" / "helper_called_twice.py").read_text())
    assert any(chunk.lstrip().startswith("def ") and "# expect: NNL001" in chunk for chunk in helper)


@pytest.mark.parametrize("name", CASE_IDS)
def test_findings_equal_markers_by_cell(case_notebooks, name):
    path = case_notebooks / "unfixed" / f"{name}.ipynb"
    assert found_in_cells(path) == expected_in_cells(path.read_text(encoding="utf-8"))


def test_magics_notebook_findings_equal_markers():
    path = FIXTURES / "magics.ipynb"
    found = found_in_cells(path)
    assert found == expected_in_cells(path.read_text(encoding="utf-8"))
    assert {cell for cell, _, _ in found} == {5, 8}  # the helper's cell and a trace's cell


# --- fixed notebooks run clean ---------------------------------------------------------------


class KernelRunner:
    """One Jupyter kernel for every notebook; each notebook's first cell resets the namespace."""

    def __init__(self, client):
        self.client = client

    def errors(self, path: Path) -> Optional[str]:
        import nbformat

        nb = nbformat.read(str(path), as_version=4)
        self.client.nb = nb
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            self.client.execute_cell(cell, index)
            failed = [o for o in cell.outputs if o.output_type == "error"]
            if failed:
                return f"{failed[0].ename}: {failed[0].evalue}"
        return None


class ExecRunner:
    """Without a kernel: the code cells in order in one namespace, IPython lines masked."""

    def errors(self, path: Path) -> Optional[str]:
        namespace = {"__name__": "__main__"}
        for number, source in enumerate(code_sources(path.read_text(encoding="utf-8")), start=1):
            runnable = mask(source)[0]
            filename = f"<{path.stem} cell {number}:{hash(runnable):x}>"
            linecache.cache[filename] = (len(runnable), None, runnable.splitlines(True), filename)
            try:
                exec(compile(runnable, filename, "exec"), namespace)
            except Exception as error:  # noqa: BLE001 - the test compares the error text
                return f"{type(error).__name__}: {error}"
        return None


@pytest.fixture(scope="module")
def runner(case_notebooks):
    os.environ.setdefault("NNSIGHT_LINT_ROOT", str(ROOT))  # magics.ipynb's setup cell reads it
    try:
        import ipykernel  # noqa: F401
        import nbformat
        from nbclient import NotebookClient
    except ImportError:
        yield ExecRunner()
        return
    client = NotebookClient(
        nbformat.v4.new_notebook(), timeout=600, kernel_name="python3", allow_errors=True,
        resources={"metadata": {"path": str(case_notebooks)}},
    )
    with client.setup_kernel():
        yield KernelRunner(client)


def expected_error(case: Path, fixed: bool) -> Optional[str]:
    source = case.read_text(encoding="utf-8")
    raises = runtime_raises(source)
    if raises:
        return raises
    return None if fixed or not expected_findings(source) else FREED_GRAPH


@pytest.mark.parametrize("name", CASE_IDS)
def test_fixed_notebook_runs_clean(case_notebooks, runner, name):
    case = ROOT / "rules" / "NNL001" / f"{name.split('[')[0]}.py"
    path = case_notebooks / "fixed" / f"{name}.ipynb"
    # What is left: other rules' findings (NNL005 on generate/no_grad traces), which have no fix.
    left = {found for found in expected_in_cells(path.read_text(encoding="utf-8")) if found[2] != "NNL001"}
    assert found_in_cells(path) == left
    error, expected = runner.errors(path), expected_error(case, fixed=True)
    assert (error is None) if expected is None else (error is not None and expected in error), error


@pytest.mark.parametrize("name", CASE_IDS)
def test_unfixed_notebook_fails_as_its_markers_say(case_notebooks, runner, name):
    case = ROOT / "rules" / "NNL001" / f"{name.split('[')[0]}.py"
    error, expected = runner.errors(case_notebooks / "unfixed" / f"{name}.ipynb"), expected_error(case, fixed=False)
    assert (error is None) if expected is None else (error is not None and expected in error), error


def test_magics_notebook_runs_in_a_kernel_only_once_fixed(case_notebooks, runner):
    error = runner.errors(case_notebooks / "unfixed" / "magics.ipynb")
    assert error is not None and FREED_GRAPH in error
    assert runner.errors(case_notebooks / "fixed" / "magics.ipynb") is None


# --- fixing keeps every other byte ------------------------------------------------------------


def test_fix_rewrites_only_the_changed_cells_byte_for_byte(tmp_path):
    before = (FIXTURES / "magics.ipynb").read_bytes()
    (tmp_path / "magics.ipynb").write_bytes(before)
    result = run_cli("check", "--fix", "magics.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    after = (tmp_path / "magics.ipynb").read_bytes()
    assert after == (FIXTURES / "magics.fixed.ipynb").read_bytes()

    # What differs is the source of two cells, in the form each had (a string; a list of lines).
    old, new = json.loads(before), json.loads(after)
    changed = [i for i, (a, b) in enumerate(zip(old["cells"], new["cells"])) if a != b]
    assert [old["cells"][i]["source"].__class__ for i in changed] == [str, list]
    for i in changed:
        assert type(new["cells"][i]["source"]) is type(old["cells"][i]["source"])
        assert {**old["cells"][i], "source": None} == {**new["cells"][i], "source": None}
    assert {**old, "cells": None} == {**new, "cells": None}
    # Line by line: each line that changed is a source line that gained `retain_graph=True`.
    old_lines, new_lines = before.decode().split("\n"), after.decode().split("\n")
    removed = [line for line in old_lines if line not in new_lines]
    added = [line for line in new_lines if line not in old_lines]
    assert len(removed) == 1 and len(new_lines) == len(old_lines) + 1
    assert added == [
        removed[0].replace("backward()", "backward(retain_graph=True)"),  # the string-form cell
        '        "        retain_graph=True,\\n",',  # a line of its own in the list-form cell
    ]
    # IPython lines are never changed; the file still ends without a newline, as it did.
    assert [s for s in code_sources(after.decode()) if "!echo" in s] == [s for s in code_sources(before.decode()) if "!echo" in s]
    assert not after.endswith(b"\n")


@pytest.mark.parametrize("variant", ["crlf", "bom", "ascii-escapes", "indent-1-sorted"])
def test_fix_keeps_the_file_conventions(variant):
    cells = [code(TWO_INVOKES.splitlines(keepends=True)), code("x = 'café'  # ☕\n" + TWO_INVOKES)]
    text = notebook(markdown("naïve"), *cells)
    if variant == "crlf":
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    if variant == "bom":
        data = b"\xef\xbb\xbf" + data
    if variant == "ascii-escapes":
        document = json.loads(text)
        data = json.dumps(document, indent=1, sort_keys=True).encode("ascii")
    result = fix_bytes(data, "nb.ipynb")
    assert result.error is None and result.fixed == 2 and result.remaining == []
    fixed = result.data
    fixed_text = fixed.decode("utf-8-sig")
    assert fixed.startswith(b"\xef\xbb\xbf") == (variant == "bom")
    assert ("\r\n" in fixed_text) == (variant == "crlf") and fixed_text.count("\r\n") == data.decode("utf-8-sig").count("\r\n")
    assert fixed.isascii() == (variant == "ascii-escapes")
    sources = code_sources(fixed_text)
    assert all(s.count("backward(retain_graph=True)") == 1 for s in sources)
    # Undo the fix: the very bytes we started from.
    assert fixed.replace(b"backward(retain_graph=True)", b"backward()") == data


# --- locations, masking, noqa ----------------------------------------------------------------


def test_location_is_the_position_among_code_cells(tmp_path):
    text = notebook(
        markdown("# Title"), code("import torch\n"), markdown("text"), code(""), {"cell_type": "raw", "metadata": {}, "source": "raw"},
        code("x = 1\n"), code("# a comment\n\n" + TWO_INVOKES),
    )
    (tmp_path / "nb.ipynb").write_text(text, encoding="utf-8")
    result = run_cli("check", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == f"nb.ipynb:cell 4:5:36: NNL001 [*] {messages.nnl001('backward()', 7)}\n"


def test_a_helper_in_an_earlier_cell_is_seen_and_named_by_cell(tmp_path):
    helper = "def push(logits):\n    logits.sum().backward()\n"
    trace = (
        "with model.trace() as tracer:\n"
        "    with tracer.invoke('hello world'):\n"
        "        push(model.lm_head.output)\n"
        "    with tracer.invoke('the cat sat'):\n"
        "        model.lm_head.output.sum().backward()\n"
    )
    (tmp_path / "nb.ipynb").write_text(notebook(code("import torch\n"), code(helper), code(trace)), encoding="utf-8")
    result = run_cli("check", "-q", "nb.ipynb", cwd=tmp_path)
    assert result.stdout.startswith("nb.ipynb:cell 2:2:18: NNL001 [*] ")
    assert "the backward on line 5 of cell 3 still needs" in result.stdout


MAGIC_LINES = [
    "%matplotlib inline",
    "%%time",  # a cell magic not on the first line is a line magic for IPython
    "!pip list",
    "?model",
    "??model",
    "model?",
    "model.trace??",
    "files = !ls",
    "t = %timeit -o f()",
    "%run other.py \\",
    "    --continued argument",
]


def test_ipython_lines_are_masked_in_place():
    source = "for x in y:\n    !echo {x}\n" + "\n".join(MAGIC_LINES) + "\nz = 1\n"
    masked, lines = mask(source)
    assert masked.count("\n") == source.count("\n")
    assert masked.splitlines()[:2] == ["for x in y:", "    pass"]
    assert lines == frozenset(range(2, 2 + len(MAGIC_LINES) + 1))
    assert masked.splitlines()[-1] == "z = 1"
    ast.parse(masked)


@pytest.mark.parametrize(
    "source",
    [
        'text = """\n%d items\n!important\nwhat?\n"""\n',
        "call(\n    1,\n)  # really?\n",
        "x = a if b else c  # ok?\n",
        "values = [\n    '%s' % 1,\n]\n",
        "y = 'it' 's'  # not a string start?\n",
    ],
    ids=["triple-quoted", "comment-question", "inline-comment", "percent-in-list", "implicit-concat"],
)
def test_python_that_looks_like_ipython_is_not_masked(source):
    assert mask(source) == (source, frozenset())


def test_a_cell_without_ipython_marks_is_masked_as_the_full_scan_masks_it(monkeypatch):
    from nnsight_lint.sources import notebook as ipynb

    sources = [cell for path in sorted(FIXTURES.glob("*.ipynb")) + sorted((ROOT / "rules").rglob("*.ipynb"))
               for cell in code_sources(path.read_text(encoding="utf-8"))]
    sources += [case.read_text(encoding="utf-8") for case in CASES]
    sources += ["a = 1\rb = 2\r\n\fc = 3\x0bd\n", "x = (\n  1)  # what\n", "", "\n\n", "  \tpass"]
    assert any(not mask(source)[1] for source in sources) and any(mask(source)[1] for source in sources)
    quick = [mask(source) for source in sources]
    monkeypatch.setattr(ipynb, "_IPYTHON_MARKS", ("",))  # every text holds "": the line-by-line scan
    assert quick == [mask(source) for source in sources]


def test_a_cell_magic_masks_the_whole_cell_and_markdown_and_raw_are_never_linted(tmp_path):
    text = notebook(
        code("\n%%bash\n" + TWO_INVOKES),  # %%time's body is Python, and linted: see below
        markdown(TWO_INVOKES),
        {"cell_type": "raw", "metadata": {}, "source": TWO_INVOKES},
        code(["%%writefile x.py\n"] + TWO_INVOKES.splitlines(keepends=True)),
        code([]),
        code(""),
    )
    (tmp_path / "nb.ipynb").write_text(text, encoding="utf-8")
    assert found_in_cells(tmp_path / "nb.ipynb") == set()
    # The same code in a plain cell is a finding.
    (tmp_path / "nb.ipynb").write_text(notebook(code(TWO_INVOKES)), encoding="utf-8")
    assert found_in_cells(tmp_path / "nb.ipynb") == {(1, 3, "NNL001")}


def test_noqa_works_inside_cells(tmp_path):
    silenced = TWO_INVOKES.replace("backward()\n    with", "backward()  # noqa: NNL001\n    with")
    (tmp_path / "nb.ipynb").write_text(notebook(code(silenced)), encoding="utf-8")
    assert found_in_cells(tmp_path / "nb.ipynb") == set()
    other = TWO_INVOKES.replace("backward()\n    with", "backward()  # noqa: E501\n    with")
    (tmp_path / "nb.ipynb").write_text(notebook(code(other)), encoding="utf-8")
    assert found_in_cells(tmp_path / "nb.ipynb") == {(1, 3, "NNL001")}


def test_a_cell_that_does_not_parse_is_nnl000_and_the_other_cells_are_checked(tmp_path):
    (tmp_path / "nb.ipynb").write_text(notebook(code("import torch\n"), code("def f(:\n    pass\n"), code(TWO_INVOKES)), encoding="utf-8")
    result = run_cli("check", "-q", "nb.ipynb", cwd=tmp_path)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("nb.ipynb:cell 2:1:7: NNL000 invalid syntax")
    assert lines[1].startswith("nb.ipynb:cell 3:3:36: NNL001")


def test_a_helper_no_trace_needs_is_not_parsed_and_the_findings_stay(monkeypatch):
    from nnsight_lint.engine import lint
    from nnsight_lint.sources import notebook as ipynb

    helper = "def table(rows):\n    return {row: len(row) for row in rows}\n\n"
    cells = ["import torch\n", helper + TWO_INVOKES, "layers = table(['a'])\n"]
    parsed = []
    parse = lint.parse
    monkeypatch.setattr(lint, "parse", lambda text, path: parsed.append(text) or parse(text, path))
    found = ipynb.lint_cells(cells, "nb.ipynb")
    # libcst saw the trace and the top-level code, not the helper; every line where it was.
    assert len(parsed) == 1 and "def table" not in parsed[0] and "layers = table" in parsed[0]
    assert parsed[0].count("\n") == "".join(cells).count("\n")
    assert [(d.code, d.cell, d.line) for d in found] == [("NNL001", 2, 6)]
    assert found[0].fix is not None and found[0].fix.edits[0].start.line == 6
    # The same findings, fixes and all, as from the whole join's tree.
    monkeypatch.setattr(ipynb, "sliced_text", lambda *args: None)
    assert ipynb.lint_cells(cells, "nb.ipynb") == found
    assert "def table" in parsed[-1]


def test_a_helper_libcst_must_not_be_given_is_nnl000_in_its_cell_though_no_trace_needs_it():
    from nnsight_lint.sources.notebook import lint_cells

    # CPython compiles the cell; libcst's parser would fail on it, so the join's parse refuses it.
    banner = "def banner():\n    return (" + " ".join(["'a'"] * 3001) + ")\n"
    found = lint_cells(["import torch\n", banner, TWO_INVOKES], "nb.ipynb")
    assert [(d.code, d.cell) for d in found] == [("NNL000", 2)]
    assert "3001 adjacent strings" in found[0].message


def test_a_notebook_in_another_language_is_not_checked(tmp_path):
    (tmp_path / "nb.ipynb").write_text(notebook(code(TWO_INVOKES), language_info={"name": "julia"}), encoding="utf-8")
    assert found_in_cells(tmp_path / "nb.ipynb") == set()


# --- the command line ------------------------------------------------------------------------


NBFORMAT_3 = json.dumps({"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": []}]})


def test_invalid_notebooks_are_nnl000_and_the_run_goes_on(tmp_path):
    (tmp_path / "a_broken.ipynb").write_text('{"cells": [\n  {"cell_type": "code",}\n]}\n')
    (tmp_path / "b_old.ipynb").write_text(NBFORMAT_3)
    (tmp_path / "c_list.ipynb").write_text("[1, 2]")
    (tmp_path / "d_binary.ipynb").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "e_good.ipynb").write_text(notebook(code(TWO_INVOKES)))
    (tmp_path / "f_script.py").write_text(TWO_INVOKES)
    result = run_cli("check", "-q", ".", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "a_broken.ipynb:2:24: NNL000 invalid notebook: a_broken.ipynb is not valid JSON: Expecting property name enclosed in double quotes"
    assert lines[1].startswith("b_old.ipynb:1:1: NNL000 invalid notebook: b_old.ipynb is nbformat 3; only nbformat 4 is supported")
    assert lines[2].startswith("c_list.ipynb:1:1: NNL000 invalid notebook: c_list.ipynb is not a Jupyter notebook")
    assert lines[3].startswith("d_binary.ipynb:1:1: NNL000 invalid notebook: d_binary.ipynb is not UTF-8")
    assert lines[4].startswith("e_good.ipynb:cell 1:3:36: NNL001 [*]")
    assert lines[5].startswith("f_script.py:3:36: NNL001 [*]")
    assert len(lines) == 6

    # --fix goes on too: the good files are fixed, the bad ones reported and left byte for byte.
    broken = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name[0] in "abcd"}
    result = run_cli("check", "--fix", ".", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["a_broken.ipynb", "b_old.ipynb", "c_list.ipynb", "d_binary.ipynb"]
    assert {name: (tmp_path / name).read_bytes() for name in broken} == broken
    assert run_cli("check", "-q", "e_good.ipynb", "f_script.py", cwd=tmp_path).stdout == ""


def test_diff_shows_cells_and_writes_nothing(tmp_path):
    original = notebook(code("import torch\n"), markdown("x"), code(TWO_INVOKES))
    (tmp_path / "nb.ipynb").write_text(original)
    result = run_cli("check", "--diff", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == (
        "--- a/nb.ipynb:cell 2\n"
        "+++ b/nb.ipynb:cell 2\n"
        "@@ -1,5 +1,5 @@\n"
        " with model.trace() as tracer:\n"
        '     with tracer.invoke("hello world"):\n'
        "-        model.lm_head.output.sum().backward()\n"
        "+        model.lm_head.output.sum().backward(retain_graph=True)\n"
        '     with tracer.invoke("the cat sat"):\n'
        "         model.lm_head.output.sum().backward()\n"
    )
    assert (tmp_path / "nb.ipynb").read_text() == original


def test_notebooks_are_walked_unless_turned_off(tmp_path):
    (tmp_path / "nb.ipynb").write_text(notebook(code(TWO_INVOKES)))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "script.py").write_text(TWO_INVOKES)
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "nb-checkpoint.ipynb").write_text(notebook(code(TWO_INVOKES)))
    paths = lambda *args: [line.split(":")[0] for line in run_cli("check", "-q", *args, cwd=tmp_path).stdout.splitlines()]  # noqa: E731
    assert paths(".") == ["nb.ipynb", "sub/script.py"]
    assert paths("--no-notebooks", ".") == ["sub/script.py"]
    assert paths("--no-notebooks", "nb.ipynb") == ["nb.ipynb"]  # named explicitly: always checked
    # The setting is the same switch.
    (tmp_path / "pyproject.toml").write_text("[tool.nnsight-lint]\nnotebooks = false\n")
    assert paths(".") == ["sub/script.py"]
    assert paths("--fix", ".") == []
    assert "retain_graph" in (tmp_path / "sub" / "script.py").read_text()
    assert "retain_graph" not in (tmp_path / "nb.ipynb").read_text()


def test_stdin_notebook_by_its_filename():
    text = notebook(code(TWO_INVOKES))
    result = run_cli("check", "-", "--stdin-filename", "nb.ipynb", stdin=text)
    assert result.returncode == 1 and result.stdout.startswith("nb.ipynb:cell 1:3:36: NNL001")
    fixed = run_cli("check", "--fix", "-", "--stdin-filename", "nb.ipynb", stdin=text)
    assert fixed.stdout == text.replace("backward()\\n    with", "backward(retain_graph=True)\\n    with")


def test_stdin_notebook_without_a_filename_is_recognised_by_its_content():
    text = notebook(markdown("# notes"), code(TWO_INVOKES))
    result = run_cli("check", "--no-cache", "-", stdin=text)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("-:cell 1:3:36: NNL001")
    fixed = run_cli("check", "--fix", "-", stdin=text)
    assert fixed.stdout == text.replace("backward()\\n    with", "backward(retain_graph=True)\\n    with")
    # JSON that is no notebook is still Python to the linter (a dict display), not a notebook.
    assert run_cli("check", "-", stdin='{"cells": 1}\n').returncode == 0


# `# %%` scripts (jupytext percent format, VS Code's interactive window), as nnsight's own
# walkthrough is written: shell escapes and magics among the Python.
PERCENT_SCRIPT = """\
# %% [markdown]
# Gradients for two prompts
# %%
!pip install nnsight
%load_ext autoreload
import torch
# %%writefile notes.txt
%%writefile notes.txt
this cell is written to a file by the magic, not run by Python
# %%
""" + TWO_INVOKES


def test_percent_script_magics_are_masked_as_in_a_notebook(tmp_path):
    (tmp_path / "walkthrough.py").write_text(PERCENT_SCRIPT)
    result = run_cli("check", "--no-cache", "walkthrough.py", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    (line,) = result.stdout.splitlines()
    assert line.startswith("walkthrough.py:13:36: NNL001 [*]")  # line 3 of TWO_INVOKES, 10 lines down
    # The same code cells in a notebook: the same finding, at the same place inside its cell.
    cells = ["!pip install nnsight\n%load_ext autoreload\nimport torch\n",
             "%%writefile notes.txt\nthis cell is written to a file by the magic, not run by Python\n", TWO_INVOKES]
    (tmp_path / "walkthrough.ipynb").write_text(notebook(*map(code, cells)))
    in_notebook = run_cli("check", "--no-cache", "walkthrough.ipynb", cwd=tmp_path).stdout
    assert in_notebook.startswith("walkthrough.ipynb:cell 3:3:36: NNL001 [*]")
    assert "on line 15 still needs" in line and "on line 5 still needs" in in_notebook  # each counts its own lines


def test_a_script_without_cell_markers_is_not_masked(tmp_path):
    (tmp_path / "plain.py").write_text("!pip install nnsight\n" + TWO_INVOKES)
    result = run_cli("check", "--no-cache", "plain.py", cwd=tmp_path)
    assert result.stdout.startswith("plain.py:1:1: NNL000"), result.stdout


def test_percent_script_is_fixed_on_its_own_lines_magics_kept(tmp_path):
    (tmp_path / "walkthrough.py").write_text(PERCENT_SCRIPT)
    diff = run_cli("check", "--no-cache", "--diff", "walkthrough.py", cwd=tmp_path)
    assert diff.returncode == 1 and "NNL000" not in diff.stdout + diff.stderr, diff.stdout + diff.stderr
    fixed = run_cli("check", "--no-cache", "--fix", "walkthrough.py", cwd=tmp_path)
    assert (fixed.returncode, fixed.stdout, fixed.stderr) == (0, "", "Fixed 1 problem, 0 remaining.\n")
    expected = PERCENT_SCRIPT.replace(".backward()\n    with", ".backward(retain_graph=True)\n    with")
    assert (tmp_path / "walkthrough.py").read_text() == expected  # `!pip`, `%load_ext`, the %%writefile cell unchanged
    assert "+        model.lm_head.output.sum().backward(retain_graph=True)" in diff.stdout


def test_percent_script_with_a_python_syntax_error_is_not_fixed(tmp_path):
    broken = PERCENT_SCRIPT.replace("import torch\n", "import torch(\n")
    (tmp_path / "walkthrough.py").write_text(broken)
    result = run_cli("check", "--no-cache", "--fix", "walkthrough.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "not fixed: the file has a syntax error" in result.stderr
    assert (tmp_path / "walkthrough.py").read_text() == broken


# --- fixes of several rules compose cell by cell, as in a file ---------------------------------

ONE_LINE_TRACE = 'with model.trace("hello world"): h = -model.transformer.h[0].output\n'
ONE_LINE_FIXED = 'with model.trace("hello world"):\n    h = (-model.transformer.h[0].output).save()\n'
# The hand-fixed program, in a cell of its own: the fixed cells must give the same value.
REFERENCE = (
    "import torch\n"
    'with model.trace("hello world"):\n'
    "    expected = (-model.transformer.h[0].output).save()\n"
    "assert torch.equal(h, expected)\n"
)


def test_a_one_line_trace_read_in_a_later_cell_is_fixed_by_both_rules(tmp_path):
    """NNL206 (the body on the `with` line) and NNL101 (`h` read in the next cell) fix the same line:
    each fix is taken whole, the second in the next pass, as `check --fix` does for a `.py` file. The
    counts are true, and the fixed notebook runs and gives the hand-fixed value on real nnsight."""
    text = notebook(code(SETUP), code(ONE_LINE_TRACE), code("print(h.shape)\n"), code(REFERENCE))
    (tmp_path / "nb.ipynb").write_text(text, encoding="utf-8")
    (tmp_path / "same.py").write_text(ONE_LINE_TRACE + "print(h.shape)\n", encoding="utf-8")
    assert ExecRunner().errors(tmp_path / "nb.ipynb") is not None  # unfixed, it fails
    result = run_cli("check", "--fix", "--no-cache", "nb.ipynb", "same.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Fixed 4 problems, 0 remaining." in result.stderr, result.stderr
    fixed = tmp_path / "nb.ipynb"
    assert code_sources(fixed.read_text(encoding="utf-8"))[1] == ONE_LINE_FIXED
    assert (tmp_path / "same.py").read_text(encoding="utf-8") == ONE_LINE_FIXED + "print(h.shape)\n"
    assert ExecRunner().errors(fixed) is None



# --- cell magics whose body is Python are linted (issue 23) ------------------------------------


@pytest.mark.parametrize("magic", ["%%time", "%%timeit -n1 -r1", "%%capture out", "%%prun -q"])
def test_the_body_of_a_python_cell_magic_is_linted_and_fixed(tmp_path, magic):
    path = tmp_path / "nb.ipynb"
    path.write_text(notebook(code(f"{magic}\n{TWO_INVOKES}"), code(f"%%bash\n{TWO_INVOKES}")), encoding="utf-8")
    result = run_cli("check", "--no-cache", "nb.ipynb", cwd=tmp_path)
    name = magic[2:].split()[0]
    timed = f"nb.ipynb:cell 1:2:1: NNL208 {messages.nnl208(name, 'model.trace')}\n" if name != "capture" else ""
    # Not the %%bash cell; a trace in a %%time body is NNL208 as well (rules/NNL208).
    assert result.stdout == timed + f"nb.ipynb:cell 1:4:36: NNL001 [*] {messages.nnl001('backward()', 6)}\n"
    fixed = run_cli("check", "--no-cache", "--fix", "nb.ipynb", cwd=tmp_path)
    assert fixed.returncode == (1 if timed else 0), fixed.stdout + fixed.stderr  # NNL208 has no fix
    assert fixed.stderr == f"Fixed 1 problem, {1 if timed else 0} remaining.\n"
    first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"]
    assert first.startswith(f"{magic}\n") and "backward(retain_graph=True)" in first


def test_mask_keeps_a_python_cell_magic_body_and_masks_its_own_line_magics():
    masked, lines = mask("%%time\nwith model.trace('hello'):\n    %who\n    x = 1\n")
    assert masked == "\nwith model.trace('hello'):\n    pass\n    x = 1\n" and lines == {1, 3}
    assert mask("%%writefile a.py\nx = 1\n") == ("\n\n", frozenset({1, 2}))
