"""The flake8 plugin, run by the real flake8: the same findings at the same lines and columns as
`nnsight-lint check`, and flake8's own `# noqa`."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from nnsight_lint import messages

ROOT = Path(__file__).resolve().parent.parent
CORPUS = "rules"

TWO_INVOKES = """\
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(){comment}
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
"""
FINDING = re.compile(r"^(?P<path>[^:]+):(?P<row>\d+):(?P<col>\d+): (?P<code>NNL\d{3})(?: \[\*\])? (?P<message>.*)$")


def flake8(*args, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "NNL", *args],
        cwd=cwd, capture_output=True, text=True,
    )


def nnsight_lint(*args, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "nnsight_lint", "check", "-q", *args],
        cwd=cwd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def findings(output: str):
    parsed = [FINDING.match(line) for line in output.splitlines()]
    assert all(parsed), output
    return sorted((m["path"], int(m["row"]), int(m["col"]), m["code"], m["message"]) for m in parsed)


def test_the_plugin_is_registered_under_NNL():
    result = subprocess.run([sys.executable, "-m", "flake8", "--version"], capture_output=True, text=True)
    assert "nnsight-lint" in result.stdout


def test_flake8_matches_the_cli_on_the_whole_rule_corpus():
    ours = nnsight_lint("--no-notebooks", CORPUS)  # flake8 reads Python files only (NNL208's cases are notebooks)
    theirs = flake8(CORPUS)
    assert ours.returncode == 1 and theirs.returncode == 1, theirs.stderr
    cli = findings(ours.stdout)
    assert len(cli) >= 150  # every rule's cases: well over a hundred markers
    assert {code for *_, code, _ in cli} >= {"NNL001", "NNL002", "NNL101", "NNL202", "NNL301"}
    assert findings(theirs.stdout) == cli  # same files, lines, 1-based columns, codes and messages


def test_the_column_is_one_based_as_in_our_output(tmp_path):
    (tmp_path / "bad.py").write_text(TWO_INVOKES.format(comment=""))
    result = flake8("bad.py", cwd=tmp_path)
    assert result.stdout == f"bad.py:3:36: NNL001 {messages.nnl001('backward()', 5)}\n"


def test_noqa_is_flake8s(tmp_path):
    for name, comment in [("code", "  # noqa: NNL001"), ("bare", "  # noqa"), ("list", "  # noqa:E501,NNL001"),
                          ("other", "  # noqa: E501"), ("nospace", "  #noqa:NNL001")]:
        (tmp_path / f"{name}.py").write_text(TWO_INVOKES.format(comment=comment))
    reported = [line.split(":")[0] for line in flake8(".", cwd=tmp_path).stdout.splitlines()]
    # flake8 reads `# noqa` with exactly one space after the hash; `#noqa` is not a noqa comment to it.
    assert sorted(reported) == ["./nospace.py", "./other.py"]
    everything = [line.split(":")[0] for line in flake8("--disable-noqa", ".", cwd=tmp_path).stdout.splitlines()]
    assert len(everything) == 5


def test_flake8_reads_trace_names_from_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\ntrace-names = ["trace", "scan_trace"]\n')
    (tmp_path / "custom.py").write_text(TWO_INVOKES.format(comment="").replace("model.trace()", "model.scan_trace()"))
    assert flake8("custom.py", cwd=tmp_path).stdout.startswith("custom.py:3:36: NNL001 ")
    assert nnsight_lint("custom.py", cwd=tmp_path).stdout.startswith("custom.py:3:36: NNL001 ")


def test_flake8_reads_the_settings_docs_flake8_names(tmp_path):
    """docs/flake8.md: besides `trace-names`, the plugin reads `target-version` (or the nnsight the
    project declares), `report-deliberate-errors` and the opt-in codes `select` names; which codes
    are reported stays flake8's."""
    legacy = 'with model.trace("hello world"):\n    hidden = model.transformer.h[0].output.save()\nprint(hidden.value)\n'
    (tmp_path / "legacy.py").write_text(legacy)
    (tmp_path / "demo.py").write_text(
        "import pytest\nwith pytest.raises(NameError):\n"
        '    with model.trace("hello world"):\n        hidden = model.transformer.h[0].output\n    print(hidden)\n')
    shutil.copy(ROOT / "rules" / "NNL104" / "saved_then_output_zeroed.py", tmp_path / "alias.py")
    codes = lambda out: sorted({(line.split(":")[0], line.split()[1]) for line in out.splitlines()})  # noqa: E731
    assert codes(flake8("legacy.py", "demo.py", "alias.py", cwd=tmp_path).stdout) == [("legacy.py", "NNL301")]
    (tmp_path / "pyproject.toml").write_text(
        '[tool.nnsight-lint]\nreport-deliberate-errors = true\nselect = ["NNL", "NNL104"]\n')
    assert codes(flake8("legacy.py", "demo.py", "alias.py", cwd=tmp_path).stdout) == [
        ("alias.py", "NNL104"), ("demo.py", "NNL101"), ("legacy.py", "NNL301")]
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\ntarget-version = "0.3"\n')
    assert codes(flake8("legacy.py", cwd=tmp_path).stdout) == []  # on 0.3, `.value` is right
    docs = " ".join((ROOT / "docs" / "flake8.md").read_text(encoding="utf-8").split())
    for key in ("trace-names", "target-version", "report-deliberate-errors", "select"):
        assert f"`{key}`" in docs, key
