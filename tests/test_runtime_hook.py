"""The runtime hook (issue 4), on real nnsight and the tiny model: no mocks.

Each case is a small program written to a file and imported, because nnsight reads the source of
a trace. `# frees` marks the backward that frees the shared graph, `# fails` the one that then hits
it. On nnsight 0.5-0.7 the error leaves the trace wrapped in `nnsight.NNsightException` (its
`.original` is the error raised inside); on 0.8 the same object comes back. `raised(...)` unwraps.
"""
from __future__ import annotations

import importlib.util
import itertools
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nnsight_lint import messages
from nnsight_lint.doors import runtime
from tests.tiny_model import tiny_model

torch = pytest.importorskip("torch")
nnsight = pytest.importorskip("nnsight")

ROOT = Path(__file__).resolve().parents[1]
TORCH_TEXT = runtime.TORCH_TEXT
_counter = itertools.count()

TWO_INVOKES = """\
def main(model):
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            with model.lm_head.output.sum().backward():  # frees
                pass
        with tracer.invoke("the cat sat"):
            with model.lm_head.output.sum().backward():  # fails
                pass
"""

ALL_BUT_LAST_RETAIN = """\
def main(model):
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            with model.lm_head.output.sum().backward(retain_graph=True):
                pass
        with tracer.invoke("the cat sat"):
            with model.lm_head.output.sum().backward(retain_graph=True):
                pass
        with tracer.invoke("a dog ran"):
            with model.lm_head.output.sum().backward():
                pass
"""

THREE_INVOKES = """\
def main(model):
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            with model.lm_head.output.sum().backward(retain_graph=True):
                pass
        with tracer.invoke("the cat sat"):
            with model.lm_head.output.sum().backward():  # frees
                pass
        with tracer.invoke("a dog ran"):
            with model.lm_head.output.sum().backward():  # fails
                pass
"""

PLAIN = """\
def main(model):
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            model.lm_head.output.sum().backward()  # frees
        with tracer.invoke("the cat sat"):
            model.lm_head.output.sum().backward()  # fails
"""

GRAD_THEN_BACKWARD = """\
import torch


def main(model):
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            torch.autograd.grad(model.lm_head.output.sum(), [model.lm_head.weight])  # frees
        with tracer.invoke("the cat sat"):
            model.lm_head.output.sum().backward()  # fails
"""

ALREADY_RETAINING = """\
def main(model):
    with model.trace() as tracer:
        with tracer.invoke("hello world"):
            model.lm_head.output.sum().backward()  # frees
        with tracer.invoke("the cat sat"):
            model.lm_head.output.sum().backward(retain_graph=True)  # fails
"""

IN_A_LOOP = """\
def main(model):
    with model.trace() as tracer:
        for prompt in ["hello world", "the cat sat"]:
            with tracer.invoke(prompt):
                model.lm_head.output.sum().backward()  # frees fails
"""

RAISES_IN_BACKWARD_BLOCK = """\
def main(model, error):
    with model.trace("hello world"):
        with model.lm_head.output.sum().backward():
            raise error
"""


@pytest.fixture(scope="module")
def model():
    return tiny_model()


@pytest.fixture
def hook():
    assert not runtime.is_installed()
    with runtime.installed():
        yield
    assert not runtime.is_installed()


def load(tmp_path: Path, source: str):
    path = tmp_path / f"case_{next(_counter)}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def line_of(source: str, marker: str) -> int:
    return next(n for n, text in enumerate(source.splitlines(), 1) if text.endswith(marker))


def raised(excinfo) -> BaseException:
    """The error raised inside the trace, unwrapped from nnsight 0.5-0.7's NNsightException."""
    return getattr(excinfo.value, "original", excinfo.value)


def run_failing(tmp_path, model, source) -> tuple[BaseException, BaseException, Path]:
    module = load(tmp_path, source)
    with pytest.raises(RuntimeError) as excinfo:
        module.main(model)
    return excinfo.value, raised(excinfo), Path(module.__file__)


def expected_headline(source: str, call: str = "backward()", in_loop: bool = False) -> str:
    return messages.nnl001(call, line_of(source, "# fails"), in_loop=in_loop)


def freed_at(path: Path, source: str) -> str:
    return f" (at {path}:{line_of(source, '# frees')})"


# --- the seed: two invokes, raw and hooked -------------------------------------------------------


def test_without_the_hook_torch_speaks(tmp_path, model):
    outer, inner, _ = run_failing(tmp_path, model, TWO_INVOKES)
    assert str(inner).startswith(TORCH_TEXT)
    assert "NNL001" not in str(outer)


def test_hooked_first_line_is_the_nnl001_headline(tmp_path, model, hook):
    outer, inner, path = run_failing(tmp_path, model, TWO_INVOKES)
    text = str(inner)
    assert text.splitlines()[0] == expected_headline(TWO_INVOKES)
    assert messages.NNL001_RUNTIME_CAUSE.format(freed_at=freed_at(path, TWO_INVOKES)) in text
    assert messages.NNL001_RUNTIME_FIX in text
    assert messages.EXPLAIN_POINTER.format(code="NNL001") in text
    assert text in str(outer)  # 0.5-0.7 print only the wrapper's str(): the words must be there


def test_hooked_error_is_chained_from_torch_with_its_text_appended(tmp_path, model, hook):
    _, inner, _ = run_failing(tmp_path, model, TWO_INVOKES)
    assert type(inner) is RuntimeError
    assert isinstance(inner.__cause__, RuntimeError)
    assert str(inner.__cause__).startswith(TORCH_TEXT)
    assert str(inner).endswith("\n\n" + messages.TORCH_ORIGINAL.format(text=str(inner.__cause__)))


def test_hooked_first_line_equals_the_linters_message(tmp_path, model, hook):
    engine = pytest.importorskip("nnsight_lint.engine.lint")
    _, inner, path = run_failing(tmp_path, model, TWO_INVOKES)
    found = [d for d in engine.lint_source(TWO_INVOKES, str(path)) if d.code == "NNL001"]
    assert [(d.line, d.message) for d in found] == [
        (line_of(TWO_INVOKES, "# frees"), str(inner).splitlines()[0])
    ]


def test_retaining_all_but_the_last_runs_clean(tmp_path, model, hook):
    load(tmp_path, ALL_BUT_LAST_RETAIN).main(model)


# --- variants ------------------------------------------------------------------------------------


def test_three_invokes_names_the_last_backward_that_freed(tmp_path, model, hook):
    _, inner, path = run_failing(tmp_path, model, THREE_INVOKES)
    assert str(inner).splitlines()[0] == expected_headline(THREE_INVOKES)
    assert freed_at(path, THREE_INVOKES) in str(inner)


def test_plain_backward(tmp_path, model, hook):
    _, inner, path = run_failing(tmp_path, model, PLAIN)
    assert str(inner).splitlines()[0] == expected_headline(PLAIN)
    assert freed_at(path, PLAIN) in str(inner)
    # nnsight 0.8's "no `with` block found" probe is not shown as context of torch's error.
    torch_error = inner.__cause__
    if nnsight.__version__.startswith("0.8"):
        assert type(torch_error.__context__).__module__.startswith("nnsight")
        assert torch_error.__suppress_context__


def test_autograd_grad_then_backward(tmp_path, model, hook):
    _, inner, path = run_failing(tmp_path, model, GRAD_THEN_BACKWARD)
    assert str(inner).splitlines()[0] == expected_headline(
        GRAD_THEN_BACKWARD, call="torch.autograd.grad()"
    )
    assert freed_at(path, GRAD_THEN_BACKWARD) in str(inner)


def test_already_retaining_points_at_the_earlier_call(tmp_path, model, hook):
    _, inner, path = run_failing(tmp_path, model, ALREADY_RETAINING)
    text = str(inner)
    assert text.splitlines()[0] == expected_headline(ALREADY_RETAINING)
    where = freed_at(path, ALREADY_RETAINING)
    assert messages.NNL001_RUNTIME_ALREADY_RETAINING.format(freed_at=where) in text
    assert messages.NNL001_RUNTIME_FIX not in text


def test_the_same_call_in_a_loop(tmp_path, model, hook):
    _, inner, _ = run_failing(tmp_path, model, IN_A_LOOP)
    assert str(inner).splitlines()[0] == messages.nnl001(
        "backward()", line_of(IN_A_LOOP, "# frees fails"), in_loop=True
    )


# --- what the hook leaves alone ------------------------------------------------------------------


@pytest.mark.parametrize("error", [RuntimeError("boom"), ValueError("not a graph problem")])
def test_other_errors_in_a_backward_block_pass_untouched(tmp_path, model, hook, error):
    module = load(tmp_path, RAISES_IN_BACKWARD_BLOCK)
    with pytest.raises(type(error)) as excinfo:
        module.main(model, error)
    assert raised(excinfo) is error
    assert error.__cause__ is None


def test_plain_torch_outside_nnsight_is_untouched(hook):
    x = torch.ones(3, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as excinfo:
        y.backward()
    assert str(excinfo.value).startswith(TORCH_TEXT)
    assert excinfo.value.__cause__ is None
    g = (x * x).sum()
    torch.autograd.grad(g, x)
    with pytest.raises(RuntimeError, match="^Trying to backward"):
        torch.autograd.grad(g, x)


def test_uninstall_restores_exactly(tmp_path, model):
    before = (torch.autograd.backward, torch.autograd.grad, torch.Tensor.backward)
    runtime.install()
    assert torch.autograd.backward is not before[0] and torch.autograd.grad is not before[1]
    assert torch.Tensor.backward is before[2]  # never wrapped
    runtime.uninstall()
    assert (torch.autograd.backward, torch.autograd.grad, torch.Tensor.backward) == before
    _, inner, _ = run_failing(tmp_path, model, TWO_INVOKES)
    assert str(inner).startswith(TORCH_TEXT)


def test_install_is_idempotent():
    original = torch.autograd.backward
    try:
        runtime.install()
        patched = torch.autograd.backward
        runtime.install()
        assert torch.autograd.backward is patched
        assert patched.__wrapped__ is original
        with runtime.installed():  # nested: leaves the outer install in place
            pass
        assert torch.autograd.backward is patched
    finally:
        runtime.uninstall()
    assert torch.autograd.backward is original


# --- importing and activating -------------------------------------------------------------------


def run_python(code: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=300, **kwargs,
    )


def test_importing_nnsight_lint_imports_neither_torch_nor_nnsight():
    done = run_python(
        """
        import sys
        import nnsight_lint, nnsight_lint.runtime, nnsight_lint.pytest_plugin
        assert not {"torch", "nnsight"} & set(sys.modules), sorted(sys.modules)
        """
    )
    assert done.returncode == 0, done.stderr


def test_install_without_nnsight_names_the_extra():
    done = run_python(
        """
        import sys
        sys.modules["nnsight"] = None  # as if nnsight were not installed
        from nnsight_lint.doors import runtime
        try:
            runtime.install()
        except ImportError as err:
            print(err)
        """
    )
    assert done.stdout.strip() == messages.RUNTIME_MISSING_EXTRA, done.stderr


PLUGIN_CASE = '''\
from nnsight_lint.doors import runtime
from tests.tiny_model import tiny_model


def test_hooked():
    assert runtime.is_installed()
    model = tiny_model()
    try:
        with model.trace() as tracer:
            with tracer.invoke("hello world"):
                model.lm_head.output.sum().backward()
            with tracer.invoke("the cat sat"):
                model.lm_head.output.sum().backward()
    except RuntimeError as err:
        assert "the backward on line 13 still needs" in str(err)
    else:
        raise AssertionError("no error")
'''


@pytest.mark.parametrize(
    "args, ini, outcome",
    [
        (["-p", "nnsight_lint.pytest_plugin"], "", "1 passed"),
        ([], "", "1 failed"),
        (["-p", "nnsight_lint.pytest_plugin"], "nnsight_lint_runtime = false", "1 failed"),
    ],
    ids=["plugin", "no-plugin", "ini-off"],
)
def test_pytest_plugin(tmp_path, args, ini, outcome):
    (tmp_path / "test_case.py").write_text(PLUGIN_CASE)
    (tmp_path / "pytest.ini").write_text(f"[pytest]\n{ini}\n")
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, "test_case.py"],
        check=False, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env,
    )
    assert outcome in done.stdout, done.stdout + done.stderr


def test_ipython_extension():
    interactiveshell = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactiveshell.InteractiveShell.instance()
    try:
        shell.run_line_magic("load_ext", "nnsight_lint")
        assert runtime.is_installed()
        assert torch.autograd.backward.__wrapped__ is runtime._originals["backward"]
        shell.run_line_magic("unload_ext", "nnsight_lint")
        assert not runtime.is_installed()
    finally:
        runtime.uninstall()
        interactiveshell.InteractiveShell.clear_instance()


def test_ipython_cell_is_named_as_ipython_names_it():
    """In IPython/Jupyter the freeing backward is at `Cell In[2], line 3`, as IPython's own
    traceback says, not at `<ipython-input-2-...>:3` or a kernel's temp file."""
    interactiveshell = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactiveshell.InteractiveShell.instance()
    try:
        setup = shell.run_cell("from tests.tiny_model import tiny_model\nmodel = tiny_model()\n%load_ext nnsight_lint", store_history=True)
        assert setup.success, setup.error_in_exec
        result = shell.run_cell(
            'with model.trace() as tracer:\n'
            '    with tracer.invoke("hello world"):\n'
            '        model.lm_head.output.sum().backward()\n'
            '    with tracer.invoke("the cat sat"):\n'
            '        model.lm_head.output.sum().backward()\n',
            store_history=True,
        )
        error = getattr(result.error_in_exec, "original", result.error_in_exec)
        assert "(at Cell In[2], line 3)" in str(error), str(error)
        assert "ipython-input" not in str(error)
    finally:
        runtime.uninstall()
        interactiveshell.InteractiveShell.clear_instance()


def test_pytest_plugin_without_nnsight_is_a_usage_error_not_an_internalerror(tmp_path):
    (tmp_path / "test_case.py").write_text("def test_nothing():\n    pass\n")
    hidden = (
        "import sys; sys.modules['nnsight'] = None; import pytest; "
        "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '-p', 'nnsight_lint.pytest_plugin', 'test_case.py']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", hidden], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
    )
    output = done.stdout + done.stderr
    assert done.returncode == 4, output  # pytest's usage-error exit code
    assert "pip install 'nnsight-lint[runtime]'" in output
    assert "INTERNALERROR" not in output and "Traceback" not in output
