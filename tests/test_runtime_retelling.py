"""The runtime re-telling (`nnsight_lint.doors.retelling`): an error a rule predicts, escaping to pytest,
IPython or a script's excepthook, is told in the rule's words; every other error is left alone.
Real nnsight 0.8, the tiny model, the rule corpus's own failing cases: no mocks.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from nnsight_lint import messages, rules
from nnsight_lint.engine.lint import LintOptions, lint_source
from nnsight_lint.doors.retelling import installed_transformers, retell
from tests.case_runner import raised_by, run_case
from tests.test_rule_cases import expected_findings
from tests.test_rule_family_cases_runtime import headers

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def _failing_cases():
    """Cases that fail at run time and carry a marker of a registered rule (NNL001 has its own hook)."""
    found = []
    for path in sorted(ROOT.glob("rules/NNL*/*.py")):
        source = path.read_text(encoding="utf-8")
        found_headers = headers(source)
        codes = {code for _, code in expected_findings(source) if code in rules.CODES and code != "NNL001"}
        if codes and "runtime-raises" in found_headers and "runtime" not in found_headers and "target-version" not in found_headers:
            found.append(path)
    return found


FAILING = _failing_cases()


@pytest.mark.parametrize("path", FAILING, ids=[f"{p.parent.name}/{p.stem}" for p in FAILING])
def test_a_predicted_error_is_told_in_the_rules_words(path: Path, model):
    """Its first line is the message the linter prints for the same code; the original text stays."""
    error = raised_by(path, model)
    original = str(error)
    assert retell(error), f"not re-told: {type(error).__name__}: {original}"
    told = str(error)
    source = path.read_text(encoding="utf-8")
    options = LintOptions(select=rules.CODES, report_deliberate_errors=True, honour_noqa=False,
                          transformers_version=installed_transformers())  # the run time knows its transformers
    linted = {d.message for d in lint_source(source, str(path), options)}
    if isinstance(error, UnboundLocalError):  # the linter says NameError; the hook names the class raised
        linted = {message.replace("(NameError)", "(UnboundLocalError)") for message in linted}
    assert told.splitlines()[0] in linted
    assert told.endswith(messages.ORIGINAL_ERROR.format(text=original))
    assert not retell(error), "re-telling twice"


def test_an_unrelated_error_is_left_alone(tmp_path, model):
    program = tmp_path / "unrelated.py"
    program.write_text('"""An error no rule predicts."""\nwith model.trace("hello world"):\n    h = model.transformer.h[0].output.save()\nraise ValueError("mine")\n')
    error = raised_by(program, model)
    assert not retell(error)
    assert error.args == ("mine",)


def test_an_out_of_order_grad_the_linter_cannot_decide_names_the_variable(tmp_path, model):
    """nnsight names the tensor only by its id(); the frame knows its name."""
    program = tmp_path / "computed_order.py"
    program.write_text(
        '"""Layers captured in forward order, read in an order computed at run time."""\n'
        "order = [0, 1]\n"
        'with model.trace("the cat ran"):\n'
        "    hs = [model.transformer.h[i].output for i in order]\n"
        "    with model.lm_head.output.sum().backward():\n"
        "        first = hs[order[0]]\n"
        "        second = hs[order[1]]\n"
        "        g0 = first.grad.save()\n"
        "        g1 = second.grad.save()\n"
    )
    error = raised_by(program, model)
    assert retell(error)
    assert str(error).splitlines()[0] == messages.grad_order_runtime("second", 9)


SCRIPT = """\
import runpy, sys
sys.path.insert(0, {root!r})
from tests.tiny_model import tiny_model
import nnsight_lint.runtime
nnsight_lint.runtime.install()
runpy.run_path({case!r}, {{"model": tiny_model()}}, run_name="__main__")
"""


def test_a_script_with_the_hook_prints_the_rules_words(tmp_path):
    case = ROOT / "rules" / "NNL003" / "attn_then_mlp_same_block.py"
    script = tmp_path / "script.py"
    script.write_text(SCRIPT.format(root=str(ROOT), case=str(case)))
    done = subprocess.run([sys.executable, "-W", "ignore", str(script)], capture_output=True, text=True,
                          timeout=300, env=ENV)
    assert done.returncode == 1
    last = [line for line in done.stderr.splitlines() if "OutOfOrderError" in line][-1]
    assert "gradients arrive in REVERSE forward order" in last or re.search(r"NNL003|`\w+\.grad`", last), done.stderr
    assert "The original error: '" in done.stderr


def test_the_pytest_plugin_reports_the_rules_words(tmp_path):
    case = ROOT / "rules" / "NNL003" / "attn_then_mlp_same_block.py"
    (tmp_path / "test_case.py").write_text(
        "import sys, runpy\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from tests.tiny_model import tiny_model\n\n"
        "def test_case():\n"
        f"    runpy.run_path({str(case)!r}, {{'model': tiny_model()}}, run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "nnsight_lint.pytest_plugin",
         "-W", "ignore", "test_case.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=ENV,
    )
    assert "1 failed" in done.stdout, done.stdout + done.stderr
    assert "REVERSE forward order" in done.stdout or "nnsight-lint NNL003" in done.stdout, done.stdout
    assert "The original error: '" in done.stdout


def test_the_ipython_extension_shows_the_rules_words(capsys):
    interactiveshell = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactiveshell.InteractiveShell.instance()
    from nnsight_lint.doors import runtime

    try:
        setup = shell.run_cell("from tests.tiny_model import tiny_model\nmodel = tiny_model()\n%load_ext nnsight_lint")
        assert setup.success, setup.error_in_exec
        result = shell.run_cell(
            'with model.trace("the cat ran"):\n'
            "    a = model.transformer.h[0].output\n"
            "    b = model.transformer.h[1].output\n"
            "    with model.lm_head.output.sum().backward():\n"
            "        ga = a.grad.save()\n"
            "        gb = b.grad.save()\n"
        )
        assert not result.success
        shown = capsys.readouterr().out
        assert "REVERSE forward order" in shown or "NNL003" in shown, shown
        assert "The original error: '" in shown
    finally:
        runtime.uninstall()
        shell.set_custom_exc((), None)
        interactiveshell.InteractiveShell.clear_instance()


def test_the_silent_grad_outside_backward_warns_in_the_rules_words(model):
    """NNL002's mistake raises nothing on 0.8: torch's non-leaf `.grad` warning becomes the rule's."""
    from nnsight_lint.doors import runtime

    path = ROOT / "rules" / "NNL002" / "grad_after_plain_backward_in_invoke.py"
    source = path.read_text(encoding="utf-8")
    (finding,) = [d for d in lint_source(source, str(path)) if d.code == "NNL002"]
    with runtime.installed(), warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        run_case(path, model)
    told = [str(w.message) for w in shown if "leaf Tensor" in str(w.message)]
    assert told and told[0].splitlines()[0] == finding.message
    assert f"at {path}:{finding.line} explains this warning." in told[0]  # a warning, not an error
    assert messages.ORIGINAL_WARNING.format(text="") in told[0]
    assert not runtime.is_installed()
    with warnings.catch_warnings(record=True) as plain:  # uninstalled: torch's own words again
        warnings.simplefilter("always")
        run_case(path, model)
    assert [w for w in plain if "leaf Tensor" in str(w.message)][0].message.args[0].startswith("The .grad attribute")


def test_in_a_jupyter_kernel_every_retelling_names_the_cell(tmp_path):
    """A real kernel (nbclient + ipykernel): cell code lives in a temp file of the kernel's, but the
    re-telling names `Cell In[N], line L`, as IPython's traceback and NNL001's message do; an
    UnboundLocalError is called one."""
    pytest.importorskip("ipykernel")
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    cells = [
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\nfrom tests.tiny_model import tiny_model\n"
        "model = tiny_model()\n%load_ext nnsight_lint",
        'with model.trace("the cat sat"):\n    late = model.transformer.h[1].output.save()\n'
        "    early = model.transformer.h[0].output.save()\n",
        'def hidden_state():\n    with model.trace("hello world"):\n        hidden = model.transformer.h[0].output\n'
        "    return hidden\n\nhidden_state()\n",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [[o for o in cell.outputs if o.output_type == "error"] for cell in notebook.cells]
    assert errors[0] == []
    (order,), (unbound,) = errors[1], errors[2]
    assert "nnsight-lint NNL202 (module-order) at Cell In[2], line 3 explains this error." in order.evalue
    assert unbound.ename == "UnboundLocalError"
    assert unbound.evalue.splitlines()[0] == "`hidden` is not saved, so after the trace (line 4) it is undefined (UnboundLocalError)"
    assert "nnsight-lint NNL101 (unsaved-escape) at Cell In[3], line 3 explains this error." in unbound.evalue
    assert "ipykernel_" not in order.evalue + unbound.evalue


MODEL_PATH_ERRORS = {
    # the program, the rule that tells it, words its message and story must hold (from the real model)
    "wrong_name_in_trace": ('with model.trace("hello world"):\n    x = model.transformer.h[0].self_attn.output.save()\n',
                            "NNL401", ["`self_attn`", "`attn`, `ln_1`, `ln_2`, `mlp`"]),
    "index_in_trace": ('with model.trace("hello world"):\n    x = model.transformer.h[-3].output.save()\n',
                       "NNL402", ["index -3", "has 2 of"]),
    "too_many_indices": ('with model.trace("hello world"):\n    x = model.transformer.h[0].output[0][:, -1, :].save()\n',
                         "NNL403", ["selects batch row 0", f"transformers {installed_transformers()}"[:-2]]),
    "index_outside_trace": ("layer = model.transformer.h[5]\n", "NNL402", ["index 5", "has 2 of"]),
    "wrong_name_outside_trace": ("blocks = model.transformer.blocks\n", "NNL401", ["`blocks`", "`wte`, `wpe`, `drop`, `h`, `ln_f`"]),
}


@pytest.mark.parametrize("name", sorted(MODEL_PATH_ERRORS))
def test_model_path_errors_are_told_from_the_real_model(tmp_path, model, name):
    """The source never says which model `model` is: the run time reads the real one (its config for
    the rules, its children and length for errors outside any trace)."""
    source, code, words = MODEL_PATH_ERRORS[name]
    program = tmp_path / f"{name}.py"
    program.write_text(source)
    error = raised_by(program, model)
    original = str(error)
    assert retell(error), original
    told = str(error)
    assert f"nnsight-lint {code} ({rules.rule(code).NAME})" in told
    said = told.split("\n\n")[0]  # the short message and its story, before the pointer to the rule
    assert len(said.splitlines()) == 2, told
    for word in words:
        assert word in said, (word, told)
    assert told.endswith(messages.ORIGINAL_ERROR.format(text=original))
    assert [d.code for d in lint_source(source, str(program)) if d.code.startswith("NNL4")] == []  # statically unknown


def test_the_runtime_uses_the_files_own_settings(tmp_path, model):
    """The hook resolves the file's settings as `check` does: a trace name the project's
    [tool.nnsight-lint] declares opens a trace there, and the NameError after it is told."""
    (tmp_path / "pyproject.toml").write_text('[tool.nnsight-lint]\ntrace-names = ["trace", "probe"]\n')
    program = tmp_path / "probing.py"
    program.write_text('"""A project wrapper named `probe` opens a trace."""\n'
                       'with model.probe("hello world"):\n    h = model.transformer.h[0].output\nprint(h)\n')
    type(model).probe = type(model).trace
    try:
        error = raised_by(program, model)
    finally:
        del type(model).probe
    assert isinstance(error, NameError)
    assert retell(error), str(error)
    assert "NNL101" in str(error) or "`h` is not saved" in str(error)
