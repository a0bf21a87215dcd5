"""The flake8 door: `flake8 --select NNL` reports what `nnsight-lint check` reports, where it does.

flake8 hands the plugin the file's physical `lines`; the engine checks them. flake8 wants 0-based
columns from a plugin and adds one when it prints, so the 1-based columns of our diagnostics lose
one here, once. flake8 owns `# noqa` (and `--disable-noqa`): the engine's own noqa handling is
off here, so it never drops a finding first; the comments themselves stay (a line whose comment
says it fails on purpose is a deliberate demo, as in `check`).

The file's settings (its `trace-names`, its target versions, its models) are resolved as `check`
resolves them (`config.Resolver`, once per directory); which codes run is flake8's business
(`--select`, `--extend-ignore`, `--per-file-ignores`).
"""
from __future__ import annotations

import functools
import os
from typing import Iterator, Sequence, Tuple

from nnsight_lint import __version__


class Plugin:
    name = "nnsight-lint"
    version = __version__

    def __init__(self, tree, lines: Sequence[str], filename: str = "stdin"):
        # `tree` is flake8's ast, which we do not use: flake8 picks a plugin's kind by that name.
        self.lines = list(lines)
        self.filename = filename

    def run(self) -> Iterator[Tuple[int, int, str, type]]:
        from nnsight_lint.engine.lint import lint_source

        options = _options_for(os.path.dirname(os.path.abspath(self.filename)) if self.filename != "stdin" else os.getcwd())
        for diagnostic in lint_source("".join(self.lines), self.filename, options):
            yield diagnostic.line, diagnostic.column - 1, f"{diagnostic.code} {diagnostic.message}", type(self)


@functools.lru_cache(maxsize=None)
def _options_for(directory: str):
    from dataclasses import replace

    from nnsight_lint.sources.config import settings_for

    settings = settings_for(directory)
    # flake8 selects and ignores codes itself; our default rules (and the opt-in rules the
    # project's [tool.nnsight-lint] selects) run, and it filters.
    return replace(settings.lint_options(), select=("NNL",) + tuple(code for code in settings.select if len(code) == 6),
                   ignore=(), honour_noqa=False)
