"""The runtime hook costs nothing on a passing run and re-tells only what a rule predicts (issue 25,
items 5-7), on real nnsight 0.8, the tiny model and a real IPython shell: no mocks.

- A warning no rule re-tells is shown without linting anything; a file is linted at most once per
  process however many errors and warnings come from it (the cost as a ratio:
  `benchmarks/runtime_hook_overhead.py --pytest`).
- An error the user's own expression raised (`cfg.lr` on None, `int("x")`) on a line that also
  holds a finding is not that finding's; nor is a NameError for another name.
- `%load_ext nnsight_lint` chains to the custom exception handler set before it, and
  `%unload_ext` puts it back.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from nnsight_lint import messages
from nnsight_lint.doors import retelling, runtime
from nnsight_lint.doors.retelling import retell, retell_warning
from nnsight_lint.engine import lint
from tests.case_runner import raised_by

pytest.importorskip("nnsight")

TRACE = 'with model.trace("hello world"):\n    h = model.transformer.h[0].output.save()\n'


def raised(tmp_path: Path, name: str, source: str, model) -> BaseException:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return raised_by(path, model)


def codes_on(path: Path, line: int):
    options = lint.LintOptions(report_deliberate_errors=True, honour_noqa=False)
    return {d.code for d in lint.lint_source(path.read_text(), str(path), options) if d.line == line}


@pytest.fixture(autouse=True)
def fresh_memory():
    """Each test starts with a hook that has linted nothing."""
    memory = getattr(retelling, "_findings", None)
    memory is not None and memory.clear()
    yield
    memory is not None and memory.clear()


@pytest.fixture
def lints(monkeypatch):
    """How many times the engine linted, seen by wrapping our own entry point."""
    calls = []
    real = lint.lint_source

    def counted(*args, **kwargs):
        calls.append(args[1] if len(args) > 1 else kwargs.get("path"))
        return real(*args, **kwargs)

    monkeypatch.setattr(lint, "lint_source", counted)
    return calls


@pytest.mark.parametrize(
    "name, last_line, kind",
    [
        ("attribute_of_none", "cfg = None\nprint(cfg.lr, h.value)\n", AttributeError),
        ("bad_int", 'print(int("x"), h.value)\n', ValueError),
        ("other_missing_name", "print(undefined_name, h.value)\n", NameError),
    ],
)
def test_an_unrelated_error_on_a_line_with_a_finding_is_left_alone(tmp_path, model, name, last_line, kind):
    error = raised(tmp_path, name, TRACE + last_line, model)
    assert type(error) is kind
    line = len((TRACE + last_line).splitlines())
    assert "NNL301" in codes_on(tmp_path / f"{name}.py", line)  # the finding is really on that line
    original = error.args
    assert not retell(error)
    assert error.args == original


def test_the_error_the_rule_predicts_on_that_line_is_still_retold(tmp_path, model):
    error = raised(tmp_path, "legacy_value", TRACE + "cfg = 0.1\nprint(cfg, h.value)\n", model)
    assert isinstance(error, AttributeError) and "value" in str(error)
    assert retell(error)
    assert "NNL301" in str(error) and str(error).endswith(messages.ORIGINAL_ERROR.format(text="'Tensor' object has no attribute 'value'"))


def test_a_name_error_for_an_unsaved_name_is_retold_but_not_one_for_another_name(tmp_path, model):
    unsaved = 'with model.trace("hello world"):\n    h = model.transformer.h[0].output\n'
    mine = raised(tmp_path, "mine", unsaved + "print(h)\n", model)
    assert isinstance(mine, NameError) and retell(mine) and "NNL101" in str(mine)
    other = raised(tmp_path, "other", unsaved + "print(missing_too, h)\n", model)
    assert "NNL101" in codes_on(tmp_path / "other.py", 2)  # at the binding of `h`
    assert isinstance(other, NameError) and other.name == "missing_too" and not retell(other)


def test_warnings_no_rule_retells_lint_nothing(tmp_path, lints):
    path = tmp_path / "warns.py"
    path.write_text(TRACE)
    for n in range(50):
        shown = warnings.WarningMessage(UserWarning(f"deprecated thing {n}"), UserWarning, str(path), 2)
        assert not retell_warning(shown)
    assert lints == []


def test_a_file_is_linted_once_for_all_its_errors_and_warnings(tmp_path, model, lints):
    source = TRACE + "print(h.value)\n"
    errors = [raised(tmp_path, "twice", source, model) for _ in range(3)]
    for error in errors:
        assert retell(error)
    path = str(tmp_path / "twice.py")
    text = "The .grad attribute of a Tensor that " + messages.TORCH_NON_LEAF_GRAD
    retell_warning(warnings.WarningMessage(UserWarning(text), UserWarning, path, 2))
    assert lints == [path]
    (tmp_path / "twice.py").write_text(source + "\n")  # a new text of the file is linted afresh
    import linecache

    linecache.checkcache(path)
    assert retell(raised(tmp_path, "twice", source + "\n", model))
    assert lints == [path, path]


def test_errors_no_rule_predicts_lint_nothing(tmp_path, model, lints):
    error = raised(tmp_path, "keyerror", TRACE + "{}['k']\n", model)
    assert isinstance(error, KeyError) and not retell(error)
    assert lints == []


# -- IPython: a handler set before ours is kept -----------------------------------------------------


def test_load_ext_chains_to_the_users_handler_and_unload_restores_it(model):
    interactiveshell = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactiveshell.InteractiveShell.instance()
    seen = []

    def mine(shell, kind, error, traceback, tb_offset=None):
        seen.append(str(error))
        return ["handled by mine\n"]

    shell.set_custom_exc((ValueError, KeyError), mine)
    before = (shell.custom_exceptions, shell.CustomTB)
    shell.user_ns["model"] = model
    try:
        assert shell.run_cell("%load_ext nnsight_lint").success
        assert shell.run_cell("%load_ext nnsight_lint").success  # a second load changes nothing
        shell.run_cell('raise ValueError("plain")')
        assert seen == ["plain"]
        shell.run_cell('with model.trace("hello world"):\n    h = model.transformer.h[0].output.save()\n'
                       'raise KeyError(h.value)\n')  # NNL301's AttributeError: not the user's kinds
        assert seen == ["plain"]
        shell.run_cell("{}['k']")
        assert seen == ["plain", "'k'"]
        shell.run_cell("%unload_ext nnsight_lint")
        assert (shell.custom_exceptions, shell.CustomTB) == before
        assert not runtime.is_installed()
        shell.run_cell('raise ValueError("again")')
        assert seen[-1] == "again"
    finally:
        runtime.uninstall()
        shell.set_custom_exc((), None)
        interactiveshell.InteractiveShell.clear_instance()


def test_a_retold_error_reaches_the_users_handler_in_the_rules_words(model, capsys):
    interactiveshell = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactiveshell.InteractiveShell.instance()
    seen = []

    def mine(shell, kind, error, traceback, tb_offset=None):
        seen.append(str(error))
        return []

    shell.set_custom_exc((AttributeError,), mine)
    shell.user_ns["model"] = model
    try:
        shell.run_cell("%load_ext nnsight_lint")
        shell.run_cell('with model.trace("hello world"):\n    h = model.transformer.h[0].output.save()\nprint(h.value)\n')
        assert len(seen) == 1 and "NNL301" in seen[0], seen
        shell.run_cell('cfg = None\nwith model.trace("hello world"):\n    h = model.transformer.h[0].output.save()\n'
                       'print(cfg.lr, h.value)\n')
        assert len(seen) == 2 and seen[1] == "'NoneType' object has no attribute 'lr'", seen
    finally:
        runtime.uninstall()
        shell.set_custom_exc((), None)
        interactiveshell.InteractiveShell.clear_instance()
