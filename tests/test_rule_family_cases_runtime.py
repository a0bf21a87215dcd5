"""Every rule case outside NNL001 tells the truth about run time (NNL001 has its own harness,
`test_rule_cases_runtime.py`, which also proves where its fix goes).

Each `rules/<CODE>/*.py` runs for real against the tiny model (one process, model built once):

- a case with a `# runtime-raises: <text>` header fails with an error whose text contains <text>;
- any other case runs clean: a look-alike because it is fine, a silent bad case because its own
  `assert`s state the wrong value the rule predicts (e.g. `assert g is None`);
- a `# target-version: X.Y` header says which nnsight the case is written for: it runs only when
  the installed nnsight has that major.minor (the linter checks it under that target);
- a `# runtime: skip <reason>` header keeps a case out of this harness (it needs something the test
  environment does not have, e.g. vLLM); the reason is shown.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from pathlib import Path

import pytest

from tests.case_runner import run_case

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
CASES = sorted(p for p in RULES_DIR.glob("NNL*/*.py") if p.parent.name != "NNL001")

HEADER = re.compile(r"#\s*(?P<key>runtime-raises|target-version|runtime):\s*(?P<value>.+?)\s*$")


def headers(source: str) -> dict:
    """The `# key: value` header comments of a case (comments only: never text inside strings)."""
    found = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            match = HEADER.match(token.string)
            if match:
                found.setdefault(match.group("key"), match.group("value"))
    return found


def _installed_minor() -> str:
    import nnsight

    return ".".join(nnsight.__version__.split(".")[:2])


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case_runs_as_stated(path: Path, model) -> None:
    source = path.read_text(encoding="utf-8")
    assert ast.get_docstring(ast.parse(source)), "a case starts with a docstring"
    found = headers(source)
    if "runtime" in found:
        pytest.skip(found["runtime"])
    target = found.get("target-version")
    if target is not None and target != _installed_minor():
        pytest.skip(f"written for nnsight {target}, installed {_installed_minor()}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nnsight's "never reached" warnings are part of some cases
        if "runtime-raises" in found:
            with pytest.raises(BaseException, match=re.escape(found["runtime-raises"])):
                run_case(path, model)
        else:
            run_case(path, model)


def test_headers_are_comments_not_strings() -> None:
    source = 's = "# runtime-raises: NameError"\n# runtime-raises: OutOfOrderError\n'
    assert headers(source) == {"runtime-raises": "OutOfOrderError"}
