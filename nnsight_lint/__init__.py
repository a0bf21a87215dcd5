"""nnsight-lint: catches nnsight mistakes before they cost a GPU hour.

Importing this package never imports libcst, torch or nnsight: the CLI's fast paths and the
runtime hook's users depend on that.
"""

__version__ = "0.1.0"


_PREVIOUS = "_nnsight_lint_previous_handler"  # on the shell: (its exceptions, its handler, ours)


def load_ipython_extension(ipython):  # `%load_ext nnsight_lint`
    """Install the hook, and re-tell a cell's error before the custom exception handler the user or
    another extension set (if any) shows it; `%unload_ext` puts that handler back."""
    from nnsight_lint.doors import runtime

    runtime.install()
    if getattr(ipython, _PREVIOUS, None) is not None and ipython.CustomTB is getattr(ipython, _PREVIOUS)[2]:
        return  # loaded already
    previous = (ipython.custom_exceptions, ipython.CustomTB)
    handler = _handler(previous)
    ipython.set_custom_exc(tuple(dict.fromkeys((Exception, *previous[0]))), handler)
    setattr(ipython, _PREVIOUS, (*previous, ipython.CustomTB))


def _handler(previous):
    exceptions, chained = previous

    def show_retold(shell, kind, error, traceback, tb_offset=None):
        """IPython's handler for a cell's error: re-tell it when a rule explains it, then show it as
        the handler set before ours does, or as IPython does."""
        from nnsight_lint.doors.retelling import retell

        if isinstance(error, Exception):
            retell(error)
        if exceptions and isinstance(error, exceptions):
            return chained(kind, error, traceback, tb_offset=tb_offset)
        return shell.showtraceback((kind, error, traceback), tb_offset=tb_offset)

    return show_retold


def unload_ipython_extension(ipython):
    from nnsight_lint.doors import runtime

    runtime.uninstall()
    saved = getattr(ipython, _PREVIOUS, None)
    if saved is None:
        return
    exceptions, handler, ours = saved
    if ipython.CustomTB is ours:  # a handler set after ours stays
        ipython.custom_exceptions, ipython.CustomTB = exceptions, handler
    setattr(ipython, _PREVIOUS, None)
