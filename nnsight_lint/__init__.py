"""nnsight-lint: catches nnsight mistakes before they cost a GPU hour.

Importing this package never imports libcst, torch or nnsight: the CLI's fast paths and the
runtime hook's users depend on that.
"""

__version__ = "0.1.0"


def load_ipython_extension(ipython):  # `%load_ext nnsight_lint`
    from nnsight_lint import runtime

    runtime.install()


def unload_ipython_extension(ipython):
    from nnsight_lint import runtime

    runtime.uninstall()
