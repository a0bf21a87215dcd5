"""The flake8 door: `flake8 --select NNL` reports what `nnsight-lint check` reports, where it does.

flake8 hands the plugin the file's physical `lines`; the engine checks them. flake8 wants 0-based
columns from a plugin and adds one when it prints, so the 1-based columns of our diagnostics lose
one here, once. flake8 owns `# noqa` (and `--disable-noqa`): the engine sees the source with every
comment blanked to spaces, so its own noqa handling never drops a finding first.

`trace-names` comes from `[tool.nnsight-lint]` in the nearest pyproject.toml; which codes run is
flake8's business (`--select`, `--extend-ignore`, `--per-file-ignores`).
"""
from __future__ import annotations

import functools
import io
import os
import tokenize
from typing import Iterator, List, Sequence, Tuple

from nnsight_lint import __version__


class Plugin:
    name = "nnsight-lint"
    version = __version__

    def __init__(self, tree, lines: Sequence[str], filename: str = "stdin"):
        # `tree` is flake8's ast, which we do not use: flake8 picks a plugin's kind by that name.
        self.lines = list(lines)
        self.filename = filename

    def run(self) -> Iterator[Tuple[int, int, str, type]]:
        from nnsight_lint.engine import lint_source

        options = _options_for(os.path.dirname(os.path.abspath(self.filename)))
        source = _without_comments(self.lines)
        for diagnostic in lint_source(source, self.filename, options):
            yield diagnostic.line, diagnostic.column - 1, f"{diagnostic.code} {diagnostic.message}", type(self)


@functools.lru_cache(maxsize=None)
def _options_for(directory: str):
    from nnsight_lint.config import load_settings
    from nnsight_lint.engine import LintOptions

    settings = load_settings([directory])
    # flake8 selects and ignores codes itself; our default rules (and the opt-in rules the
    # project's [tool.nnsight-lint] selects) run, and it filters.
    options = settings.lint_options()
    return LintOptions(
        select=("NNL",) + tuple(code for code in settings.select if len(code) == 6),
        trace_names=options.trace_names,
        target_version=options.target_version,
        report_deliberate_errors=options.report_deliberate_errors,
    )


def _without_comments(lines: List[str]) -> str:
    """The source with each comment replaced by as many spaces: every position stays put."""
    text = "".join(lines)
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return text  # the engine reports the syntax error itself
    blanked = list(lines)
    for token in reversed(tokens):
        (row, start), (_, end) = token.start, token.end
        line = blanked[row - 1]
        blanked[row - 1] = line[:start] + " " * (end - start) + line[end:]
    return "".join(blanked)
