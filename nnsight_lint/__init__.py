"""nnsight-lint: catches nnsight mistakes before they cost a GPU hour.

Importing this package never imports libcst, torch or nnsight: the CLI's fast paths and the
runtime hook's users depend on that.
"""

__version__ = "0.1.0"


def load_ipython_extension(ipython):  # `%load_ext nnsight_lint`
    from nnsight_lint.doors import runtime

    runtime.install()
    ipython.set_custom_exc((Exception,), _show_retold)


def _show_retold(shell, kind, error, traceback, tb_offset=None):
    """IPython's handler for a cell's error: re-tell it when a rule explains it, then show it as usual."""
    from nnsight_lint.doors.retelling import retell

    retell(error)
    return shell.showtraceback((kind, error, traceback), tb_offset=tb_offset)


def unload_ipython_extension(ipython):
    from nnsight_lint.doors import runtime

    runtime.uninstall()
    ipython.set_custom_exc((), None)
