"""Every NNL001 case file tells the truth about run time.

Each `rules/NNL001/*.py` runs for real against the tiny model (one process, model built once):

- a case with `# expect: NNL001` markers fails with torch's freed-graph error;
- a case without markers runs clean;
- a case with a `# runtime-raises: <text>` header fails with an error containing <text> instead;
- a marked case whose marked calls are given `retain_graph=True` runs clean, which checks that the
  markers sit on exactly the calls that need it.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from tests.case_runner import run_case

CASES_DIR = Path(__file__).resolve().parent.parent / "rules" / "NNL001"
CASES = sorted(CASES_DIR.glob("*.py"))
FREED_GRAPH = "Trying to backward through the graph a second time"

MARKER = re.compile(r"#\s*expect:\s*NNL001\s*$")
RUNTIME_RAISES = re.compile(r"#\s*runtime-raises:\s*(.+?)\s*$")

# Where `retain_graph` sits among the positional arguments of each backward-like callee.
RETAIN_INDEX = {"tensor.backward": 1, "autograd.backward": 2, "autograd.grad": 3}


def comments(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment token: markers inside strings are not markers."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [(tok.start[0], tok.string) for tok in tokens if tok.type == tokenize.COMMENT]


def marked_lines(source: str) -> set[int]:
    return {line for line, text in comments(source) if MARKER.search(text)}


def runtime_raises(source: str) -> str | None:
    found = [m.group(1) for _, text in comments(source) if (m := RUNTIME_RAISES.match(text))]
    return found[0] if found else None


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _callee(call: ast.Call, imported: dict[str, str]) -> tuple[str, int] | None:
    """(kind, line of the callee's name) if `call` is backward-like, else None."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in imported:
        return imported[func.id], func.lineno
    if isinstance(func, ast.Attribute) and func.attr in ("backward", "grad"):
        owner = _dotted(func.value)
        if func.attr == "grad":
            kind = "autograd.grad"
        elif owner == "autograd" or owner.endswith(".autograd"):
            kind = "autograd.backward"
        else:
            kind = "tensor.backward"
        return kind, func.end_lineno
    return None


def add_retain_graph(source: str, lines: set[int]) -> str:
    """Make every backward-like call whose name sits on one of `lines` pass `retain_graph=True`.

    Replaces an existing `retain_graph` (keyword or positional), else merges it into a `**mapping`,
    else appends it after the last argument. Raises ValueError for a line that names no such call.
    """
    tree = ast.parse(source)
    imported = {
        alias.asname or alias.name: f"autograd.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "torch.autograd"
        for alias in node.names
        if alias.name in ("grad", "backward")
    }
    data = source.encode()
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:  # ast columns are UTF-8 byte offsets
        return starts[line - 1] + col

    def span(node: ast.AST) -> tuple[int, int]:
        return offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)

    edits: list[tuple[int, int, str]] = []
    found: set[int] = set()
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or (hit := _callee(call, imported)) is None:
            continue
        kind, name_line = hit
        if name_line not in lines:
            continue
        found.add(name_line)
        keyword = next((k for k in call.keywords if k.arg == "retain_graph"), None)
        double_star = next((k for k in call.keywords if k.arg is None), None)
        position = RETAIN_INDEX[kind]
        if keyword is not None:
            edits.append((*span(keyword.value), "True"))
        elif len(call.args) > position:
            edits.append((*span(call.args[position]), "True"))
        elif double_star is not None:
            text = ast.get_source_segment(source, double_star.value)
            edits.append((*span(double_star.value), f'{{**{text}, "retain_graph": True}}'))
        elif call.args or call.keywords:
            last = max([*call.args, *call.keywords], key=lambda n: (n.end_lineno, n.end_col_offset))
            end = span(last)[1]
            edits.append((end, end, ", retain_graph=True"))
        else:
            end = span(call)[1] - 1  # just before the closing parenthesis
            edits.append((end, end, "retain_graph=True"))
    if missing := sorted(lines - found):
        raise ValueError(f"no backward-like call named on marked line(s) {missing}")
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text.encode() + data[end:]
    return data.decode()


# create_graph=True cases make torch warn about a parameter/grad reference cycle; `model` breaks it.
pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case_runs_as_marked(path: Path, model) -> None:
    source = path.read_text()
    assert ast.get_docstring(ast.parse(source)), "a case starts with a docstring"
    expected_error = runtime_raises(source)
    if expected_error is not None:
        assert not marked_lines(source), "a `# runtime-raises:` case carries no markers"
        with pytest.raises(Exception, match=re.escape(expected_error)):
            run_case(path, model)
    elif marked_lines(source):
        with pytest.raises(RuntimeError, match=FREED_GRAPH):
            run_case(path, model)
    else:
        run_case(path, model)


MARKED = [p for p in CASES if marked_lines(p.read_text())]


@pytest.mark.parametrize("path", MARKED, ids=[p.stem for p in MARKED])
def test_retaining_on_marked_calls_runs_clean(path: Path, model) -> None:
    source = path.read_text()
    run_case(path, model, source=add_retain_graph(source, marked_lines(source)))


REWRITES = [  # (marked line, source, rewritten source)
    (1, "loss.backward()  # m\n", "loss.backward(retain_graph=True)  # m\n"),
    (1, "x.sum().backward(retain_graph=False)\n", "x.sum().backward(retain_graph=True)\n"),
    (1, "x.backward(None, False)\n", "x.backward(None, True)\n"),
    (1, "x.backward(g)\n", "x.backward(g, retain_graph=True)\n"),
    (1, "torch.autograd.backward(t, None, None)\n", "torch.autograd.backward(t, None, True)\n"),
    (1, "autograd.grad(y, w, None, False)\n", "autograd.grad(y, w, None, True)\n"),
    (1, "x.backward(**kw)\n", 'x.backward(**{**kw, "retain_graph": True})\n'),
    (1, "with loss.backward():\n    pass\n", "with loss.backward(retain_graph=True):\n    pass\n"),
    (
        2,
        "from torch.autograd import grad as g\ng(y, w)\n",
        "from torch.autograd import grad as g\ng(y, w, retain_graph=True)\n",
    ),
    (  # a multi-line call with a trailing comma
        2,
        "from torch.autograd import grad\nr = grad(\n    y,\n    w,\n)\n",
        "from torch.autograd import grad\nr = grad(\n    y,\n    w, retain_graph=True,\n)\n",
    ),
    (  # the name is on a later line than the call's start
        2,
        "(y\n .backward(create_graph=False))\n",
        "(y\n .backward(create_graph=False, retain_graph=True))\n",
    ),
]


@pytest.mark.parametrize("line, before, after", REWRITES)
def test_add_retain_graph(line: int, before: str, after: str) -> None:
    assert add_retain_graph(before, {line}) == after


def test_add_retain_graph_leaves_other_lines_and_calls_alone() -> None:
    source = "a.sum().backward()\nb.sum().backward()  # x\n"
    assert add_retain_graph(source, {2}) == "a.sum().backward()\nb.sum().backward(retain_graph=True)  # x\n"


def test_add_retain_graph_rejects_a_marker_without_a_call() -> None:
    with pytest.raises(ValueError, match=r"\[1\]"):
        add_retain_graph("loss = logits.sum()\n", {1})


def test_markers_are_comments_not_strings() -> None:
    source = 's = "# expect: NNL001"\nx.backward()  # expect: NNL001\n'
    assert marked_lines(source) == {2}
