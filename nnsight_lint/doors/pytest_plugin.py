"""pytest plugin: `pytest -p nnsight_lint.pytest_plugin` installs the runtime hook for the session.

To load it on every run, put `addopts = "-p nnsight_lint.pytest_plugin"` in the pytest config; set
the ini option `nnsight_lint_runtime = false` to keep it loaded but off.
"""
from __future__ import annotations

import pytest

INI = "nnsight_lint_runtime"


def pytest_addoption(parser):
    parser.addini(
        INI,
        type="bool",
        default=True,
        help="nnsight-lint: explain freed-graph errors in nnsight traces (NNL001) at run time",
    )


def pytest_configure(config):
    if config.getini(INI):
        import pytest

        from nnsight_lint.doors import runtime

        try:
            runtime.install()
        except ImportError as error:  # no nnsight: say how to get it, not an INTERNALERROR traceback
            raise pytest.UsageError(str(error)) from None
        config.add_cleanup(runtime.uninstall)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test's error that a rule explains is reported in the rule's words (`retelling`)."""
    if call.excinfo is not None and item.config.getini(INI):
        from nnsight_lint.doors.retelling import retell

        retell(call.excinfo.value)
    yield
