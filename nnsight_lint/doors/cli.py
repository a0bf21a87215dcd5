"""The command line: `nnsight-lint check`, `migrate`, `explain`, `rules`, `server`. A thin door onto the engine.

Exit codes: 0 nothing found, 1 findings, 2 usage or internal error.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence

from nnsight_lint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(text: str) -> List[str]:
    return [part.strip().upper() for part in text.split(",") if part.strip()]


def _globs(text: str) -> List[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, as ruff prints it: what is wrong, a "did you mean"
    for a misspelt option, and where `--help` is; never the whole usage block."""

    argv: Optional[Sequence[str]] = None  # what main() parses, to name the subcommand in errors

    def error(self, message: str):
        import difflib
        import re

        commands = {name: p for a in self._actions if isinstance(a, argparse._SubParsersAction) for name, p in a.choices.items()}
        # argparse reports a subcommand's unknown option from the top parser: name the subcommand's.
        chosen = next((commands[arg] for arg in (self.argv or sys.argv[1:]) if arg in commands), None)
        parser = chosen or self
        options = [o for action in parser._actions for o in action.option_strings if o.startswith("--")]
        unknown = re.match(r"unrecognized arguments: (\S+)", message)
        if unknown:
            given = unknown.group(1).split("=")[0]
            close = difflib.get_close_matches(given, options, n=1, cutoff=0.75) if given.startswith("-") else []
            message = f"unexpected argument '{given}'" + (f"; did you mean '{close[0]}'?" if close else "")
        self.exit(EXIT_ERROR, f"nnsight-lint: error: {message} (`{parser.prog} --help` lists the options)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="nnsight-lint", description="Catch nnsight mistakes before they cost a GPU hour."
    )
    parser.add_argument("--version", action="version", version=f"nnsight-lint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    check = commands.add_parser("check", help="check files or directories (default: .)")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files, directories, or - for stdin")
    check.add_argument("--select", type=_codes, default=[], metavar="CODES", help="only these codes or prefixes")
    check.add_argument("--extend-select", type=_codes, default=[], metavar="CODES",
                       help="these codes or prefixes on top of the selected ones (e.g. an opt-in rule)")
    check.add_argument("--ignore", type=_codes, default=[], metavar="CODES", help="skip these codes or prefixes")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when problems are found")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    check.add_argument("--stdin-filename", metavar="NAME", help="the name to show for source read from stdin")
    check.add_argument("--fix", action="store_true", help="apply fixes in place (stdin: print the fixed source)")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    check.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes marked unsafe")
    check.add_argument("--show-fixes", action="store_true",
                       help="list the fixes by file and rule: those applied (--fix), or those --fix would apply")
    check.add_argument(
        "--no-notebooks", dest="notebooks", action="store_false", default=None,
        help="do not walk directories for .ipynb notebooks (named notebooks are still checked)",
    )
    check.add_argument(
        "--exit-non-zero-on-fix", action="store_true", help="with --fix: exit 1 when a file was changed"
    )
    # Output and settings (docs/configuration.md, docs/ci.md).
    check.add_argument(
        "--output-format", choices=("concise", "full", "json", "github", "sarif"), default="concise",
        help="how to print findings (default: concise, path:line:col: CODE message)",
    )
    check.add_argument("--statistics", action="store_true", help="print the number of findings per code instead")
    check.add_argument("--show-settings", action="store_true",
                       help="print the settings each PATH gets, and where each came from, and exit")
    check.add_argument("--show-files", action="store_true", help="print the files that would be checked and exit")
    check.add_argument("-v", "--verbose", action="store_true",
                       help="say on stderr where the settings come from, the nnsight targeted, and what was checked")
    check.add_argument("--jobs", "-j", type=_positive, metavar="N", help="processes to check with (default: CPUs)")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    check.add_argument("--cache-dir", metavar="DIR", help="where the cache lives (default: .nnsight_lint_cache "
                       "at the project root)")
    check.add_argument("--target-version", metavar="X.Y", type=_version,
                       help="the nnsight the code is written for (default: inferred from the project's requirements)")
    check.add_argument("--transformers-version", metavar="X.Y", type=_release,
                       help="the transformers the code is written for (default: inferred from the project's requirements)")
    check.add_argument("--report-deliberate-errors", action="store_true", default=None,
                       help="also report mistakes inside `pytest.raises` or a `try` that catches their error")
    check.add_argument("--config", metavar="FILE", help="read settings from FILE instead of the nearest pyproject.toml")
    check.add_argument("--exclude", type=_globs, metavar="GLOBS", help="replace the configured `exclude` globs")
    check.add_argument("--extend-exclude", type=_globs, metavar="GLOBS", help="exclude these globs as well")
    check.add_argument(
        "--force-exclude", action="store_true", help="apply `exclude` to files named explicitly too (pre-commit)"
    )
    check.set_defaults(handler=_check)

    migrate = commands.add_parser(
        "migrate", help="rewrite code for another nnsight: apply every NNL3xx fix, list what needs a person",
        description="`check --fix --unsafe-fixes --select NNL3 --target-version X.Y` with a migration summary.",
    )
    migrate.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or directories (default: .)")
    migrate.add_argument("--to", required=True, type=_version, metavar="X.Y", help="the nnsight to migrate to, e.g. 0.8")
    migrate.add_argument("--diff", action="store_true", help="print the changes as a unified diff; write nothing")
    migrate.add_argument("--safe-only", action="store_true", help="only the fixes marked safe")
    migrate.set_defaults(handler=_migrate)

    explain = commands.add_parser("explain", help="print the full explanation of a rule (by code or name)")
    explain.add_argument("code", metavar="CODE")
    explain.set_defaults(handler=_explain)

    listing = commands.add_parser("rules", help="list the rules")
    listing.add_argument("--output-format", choices=("text", "json"), default="text", help="a table, or JSON")
    listing.set_defaults(handler=_rules)

    server = commands.add_parser("server", help="run the language server (LSP) on stdin/stdout")
    server.add_argument("--stdio", action="store_true", help="accepted for editor clients; stdio is the only transport")
    server.set_defaults(handler=_server)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    parser.argv = argv
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:  # argparse: --help/--version exit 0, usage errors exit 2
        return int(exit.code or 0)
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_ERROR


def _check(args) -> int:
    from nnsight_lint import rules
    from nnsight_lint.doors.api import lint_text
    from nnsight_lint.doors.runner import check_paths
    from nnsight_lint.sources.config import ConfigError

    unknown = [c for c in args.select + args.extend_select + args.ignore if not rules.is_known_prefix(c)]
    if unknown:
        return _usage_error(f"unknown rule code or prefix: {', '.join(unknown)}")
    if args.statistics and args.output_format in ("github", "sarif"):  # a table is no annotation or SARIF log
        return _usage_error(f"--statistics prints a table; it cannot be combined with --output-format {args.output_format}")
    from nnsight_lint.sources.discovery import path_problem

    problems = [f"{p}: {problem}" for p in args.paths if p != "-" for problem in [path_problem(p)] if problem]
    if problems:
        return _usage_error("; ".join(problems))
    try:
        args.settings = resolver = _settings(args, rules.CODES)
        if args.show_settings:
            shown = [args.stdin_filename] if args.paths == ["-"] and args.stdin_filename else args.paths
            sys.stdout.write("\n".join(resolver.for_path(p, exact=True).describe() for p in shown if p != "-"))
            return EXIT_CLEAN
        named = args.stdin_filename if args.paths == ["-"] else None
        stdin_settings = resolver.for_path(named) if args.paths == ["-"] else None
        if args.show_files:
            if args.paths != ["-"]:
                sys.stdout.write("".join(f"{os.path.abspath(f)}\n" for f in resolver.files(args.paths, args.force_exclude)))
            return EXIT_CLEAN
        if args.verbose:
            _say_settings(resolver, named if args.paths == ["-"] else args.paths[0])
    except ConfigError as error:
        return _usage_error(str(error))

    if args.fix or args.diff:
        return _fix(args, resolver)
    sources = {}
    try:
        if args.paths == ["-"]:
            name = args.stdin_filename or "-"
            sources[name] = sys.stdin.buffer.read()
            skip = args.force_exclude and args.stdin_filename and stdin_settings.is_excluded(name)
            results = [] if skip else [lint_text(sources[name], name, stdin_settings.lint_options())]
        else:
            files = list(resolver.files(args.paths, args.force_exclude, on_warning=_warn))
            results = check_paths(files, resolver.options, jobs=args.jobs, cache=_cache(args, resolver), screen=resolver.screen)
            if args.verbose:
                _say(f"checked {len(files)} file{'s' if len(files) != 1 else ''}" + (":" if files else ""))
                for path in files:
                    _say(f"  {path}")
            _say_skipped(args.paths, results)
    except ConfigError as error:  # a project's own settings, met during the walk
        return _usage_error(str(error))

    if args.force_exclude:
        _say_force_excluded(args, resolver)
    diagnostics = sorted(
        (d for r in results for d in r.diagnostics if not d.code.startswith(resolver.for_path(d.path).ignored_in(d.path))),
        key=lambda d: d.sort_key(),
    )
    errors = [r for r in results if r.error]
    hidden = sum(r.hidden for r in results)
    sys.stdout.write(_render(args, diagnostics, sources, hidden))
    if args.show_fixes:
        by_path = {}
        for d in diagnostics:
            by_path.setdefault(d.path, []).append(d)
        sys.stdout.write(_enumerate_fixes(by_path, args.unsafe_fixes, "Would fix"))
    sys.stdout.flush()
    for result in errors:
        print(f"error: {result.path}: {result.error}", file=sys.stderr)
    if not args.quiet:
        fixable, unsafe_hidden = _fix_counts(diagnostics, args.unsafe_fixes)
        print(_summary(len(diagnostics), fixable, len(errors), hidden, unsafe_hidden, args.unsafe_fixes), file=sys.stderr)
        for note in _unpinned_legacy(diagnostics, resolver):
            print(note, file=sys.stderr)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if diagnostics and not args.exit_zero else EXIT_CLEAN


def _unpinned_legacy(diagnostics, resolver) -> List[str]:
    """Once per project: findings of the nnsight <= 0.4 API where the project does not pin nnsight
    mean the code was written for an old nnsight that a fresh install no longer gets."""
    from nnsight_lint import messages
    from nnsight_lint.knowledge import versions

    projects = {}
    for d in diagnostics:
        if d.code.startswith("NNL3"):
            settings = resolver.for_path(d.path)
            target = settings.target()
            if not target.pinned:
                projects.setdefault(target.project or settings.root, [0, target])[0] += 1
    return [messages.UNPINNED_LEGACY.format(count=count, s="s" if count != 1 else "", root=root,
                                            target=versions.show(target.version),
                                            legacy=versions.show(versions.LEGACY_UNTIL),
                                            next=f"{versions.LEGACY_UNTIL[0]}.{versions.LEGACY_UNTIL[1] + 1}")
            for root, (count, target) in sorted(projects.items())]


def _fix(args, resolver) -> int:
    from nnsight_lint.sources import source
    from nnsight_lint.sources.config import ConfigError
    from nnsight_lint.doors.api import fix_bytes, fix_file

    stdin = args.paths == ["-"]
    try:
        if stdin:
            options = resolver.for_path(args.stdin_filename).lint_options(args.stdin_filename)  # with its per-file-ignores
            results = [fix_bytes(sys.stdin.buffer.read(), args.stdin_filename or "-", options, args.unsafe_fixes)]
        else:
            files = resolver.files(args.paths, args.force_exclude, on_warning=_warn)
            results = [_fix_one(fix_file, p, resolver.for_path(p).lint_options(p), args.unsafe_fixes, not args.diff)
                       for p in files]
    except ConfigError as error:
        return _usage_error(str(error))
    report = sys.stderr if stdin and not args.diff else sys.stdout
    if args.diff:
        diff = lambda r: source.of(r.before, r.path).diff(r.before, r.after)  # noqa: E731
        sys.stdout.write("".join(diff(r) for r in results if r.changed))
    elif stdin:
        sys.stdout.buffer.write(results[0].data)
    remaining = sorted((d for r in results for d in r.remaining), key=lambda d: d.sort_key())
    # --diff shows fixes only, but a file it could not parse has none to show: an empty diff would
    # read as "nothing to fix", so say why on stderr (stdout stays a patch).
    unparsed = [d for d in remaining if d.code == "NNL000"] if args.diff else []
    if not args.diff:
        report.write(_render(args, remaining))
    report.flush()
    if unparsed:
        from nnsight_lint.doors import output

        sys.stderr.write(output.render("concise", unparsed))
    errors = [r for r in results if r.error]
    for result in errors:
        print(f"error: {result.path}: {result.error}", file=sys.stderr)
    for result in results:
        if result.notice:
            _warn(result.path, result.notice)
    fixed = sum(r.fixed for r in results)
    if args.show_fixes:
        (sys.stderr if args.diff or stdin else sys.stdout).write(_fixes_by_file(resolver, results, would=args.diff))
    if getattr(args, "migrating", None):
        if args.diff:  # stdout stays a patch
            sys.stderr.write(_render(args, remaining))
        print(_migration_summary(args.migrating, fixed, remaining, args.diff), file=sys.stderr)
    elif not args.quiet:
        print(_fix_summary(fixed, len(remaining), len(errors), args.diff, _fix_counts(remaining, args.unsafe_fixes)[1]),
              file=sys.stderr)
    if errors:
        return EXIT_ERROR
    if args.diff:
        return EXIT_FINDINGS if (unparsed or any(r.changed for r in results)) and not args.exit_zero else EXIT_CLEAN
    if args.exit_non_zero_on_fix and any(r.changed for r in results) and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_FINDINGS if remaining and not args.exit_zero else EXIT_CLEAN


def _fixes_by_file(resolver, results, would: bool) -> str:
    """What --fix changed, per file and rule, as ruff's `--show-fixes` says it: the findings of the
    text before that the text after no longer has."""
    from collections import Counter

    from nnsight_lint.sources import source

    fixed = {}
    for r in results:
        if not r.changed or r.error:
            continue
        path = None if r.path == "-" else r.path
        options = resolver.for_path(path).lint_options(path)
        before = Counter(d.code for d in source.of(r.before, r.path).lint(options) if d.fix)
        fixed[r.path] = before - Counter(d.code for d in r.remaining)
    return _enumerate_fixes(fixed, True, "Would fix" if would else "Fixed")


def _enumerate_fixes(by_path, unsafe: bool, verb: str) -> str:
    """`by_path`: each file's findings, or a Counter of the codes fixed in it."""
    from collections import Counter

    from nnsight_lint import rules
    from nnsight_lint.doors.output import fixable

    lines, total = [], 0
    for path, found in by_path.items():
        counts = found if isinstance(found, Counter) else Counter(d.code for d in found if fixable(d, unsafe))
        counts = {code: n for code, n in sorted(counts.items()) if n > 0}
        if counts:
            lines.append(f"- {path}:")
            lines += [f"    {n} × {code} ({rules.rule(code).NAME})" for code, n in counts.items()]
            total += sum(counts.values())
    if not total:
        return ""
    return f"\n{verb} {total} problem{'s' if total != 1 else ''}:\n" + "\n".join(lines) + "\n"


def _migrate(args) -> int:
    """`check --fix` at the target `--to`, unsafe fixes included (a migration is reviewed as a
    diff), then a summary: how many changes, and per rule what is left by hand. Every default rule
    runs: what the new release needs beyond a renamed API (a gradient read inside `with
    loss.backward():`, NNL002) is part of the migration too."""
    argv = ["check", "--diff" if args.diff else "--fix", "--target-version", args.to, "--no-cache"]
    argv += [] if args.safe_only else ["--unsafe-fixes"]
    check = build_parser().parse_args([*argv, "--", *args.paths])
    check.migrating = args.to
    return _check(check)


def _migration_summary(to: str, fixed: int, remaining, would: bool) -> str:
    from collections import Counter

    text = f"Migration to nnsight {to}: {'would change' if would else 'changed'} {fixed} place{'s' if fixed != 1 else ''}"
    if not remaining:
        return text + "; nothing needs a person."
    per_code = ", ".join(f"{code} x{n}" for code, n in sorted(Counter(d.code for d in remaining).items()))
    return (text + f"; {len(remaining)} need{'s' if len(remaining) == 1 else ''} a person ({per_code}): "
            "each finding says what to write instead; `nnsight-lint explain CODE` has the whole story.")


def _fix_one(fix_file, path, options, unsafe, write):
    """A failure while fixing one file is that file's error: the other files are still fixed."""
    from nnsight_lint.doors.api import FixResult

    try:
        return fix_file(path, options, unsafe, write=write)
    except Exception as error:
        return FixResult(path, error=f"internal error: {type(error).__name__}: {error}; the file was left unchanged")


def _settings(args, known_codes):
    """Each file's settings: [tool.nnsight-lint] from --config or the file's nearest project, with
    the flags on top (`config.Resolver`)."""
    from nnsight_lint.sources import config

    return config.Resolver(
        args.config, known_codes, on_warning=_warn, select=args.select or None,
        extend_select=args.extend_select or None, ignore=args.ignore or None,
        exclude=args.exclude, extend_exclude=args.extend_exclude, notebooks=args.notebooks,
        target_version=args.target_version, transformers_version=args.transformers_version,
        report_deliberate_errors=args.report_deliberate_errors,
    )


def _cache(args, resolver):
    """The cache of a file: in its project root (or --cache-dir), one index per distinct options."""
    if args.no_cache:
        return None
    from nnsight_lint.sources.cache import CACHE_DIR_NAME, Cache

    caches = {}

    def cache_for(path, options):
        directory = args.cache_dir or os.path.join(resolver.for_path(path).root, CACHE_DIR_NAME)
        key = (directory, options)  # options are equal where their repr, the index's key, is
        if key not in caches:
            caches[key] = Cache(directory, repr(options))
        return caches[key]

    return cache_for


def _version(text: str) -> str:
    """MAJOR.MINOR of an nnsight the rules know; a patch release is read as its minor, and said."""
    from nnsight_lint.knowledge import versions

    try:
        version = versions.parse_target(text)
    except versions.VersionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if version > versions.NEWEST or version[0] != 0:
        raise argparse.ArgumentTypeError(
            f"nnsight {text.strip()} is unknown: the rules know nnsight up to {versions.show(versions.NEWEST)}"
        )
    shown = versions.show(version)
    if text.strip() != shown:
        _say(f"--target-version {text.strip()} is read as {shown}: the rules tell minor releases apart, not patches")
    return shown


def _release(text: str) -> str:
    import re

    if re.match(r"^\s*\d+(?:\.\d+){0,3}\s*$", text) is None:
        raise argparse.ArgumentTypeError(f"not a version: {text!r} (expected e.g. 4.57 or 5.3.0)")
    return text.strip()


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value




def _render(args, diagnostics, sources=None, hidden=None) -> str:
    """`hidden`: findings not shown as deliberate demos (None: not counted, a `--fix` run)."""
    from nnsight_lint.doors import output

    if args.statistics:
        return output.statistics(diagnostics, as_json_list=args.output_format == "json", unsafe=args.unsafe_fixes,
                                 hidden=hidden)
    return output.render(args.output_format, diagnostics, sources, unsafe=args.unsafe_fixes, hidden=hidden)


def _fix_counts(diagnostics, unsafe: bool):
    """(fixes `--fix` applies, unsafe fixes it applies only with `--unsafe-fixes`: "hidden")."""
    from nnsight_lint.doors.output import fixable

    applied = sum(1 for d in diagnostics if fixable(d, unsafe))
    return applied, sum(1 for d in diagnostics if fixable(d, True)) - applied


def _hidden(hidden: int) -> str:
    return f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with `--unsafe-fixes`"


def _summary(found: int, fixable: int, unchecked: int = 0, hidden: int = 0, unsafe_hidden: int = 0,
             unsafe: bool = False) -> str:
    """`hidden`: deliberate demos not shown; `unsafe_hidden`: unsafe fixes `--fix` leaves out until
    `--unsafe-fixes` is given (ruff's "hidden fixes"). `[*]` counts what `--fix` would apply."""
    from nnsight_lint.doors import output

    if not found and not unchecked:
        text = "All checks passed."
    else:
        text = f"Found {found} problem{'s' if found != 1 else ''}."
    if unchecked:  # never "passed": the errors above name files that were not (fully) checked
        text += f" {unchecked} file{'s' if unchecked != 1 else ''} could not be checked."
    if hidden:  # "All checks passed." must not hide what was not shown
        text += "\n" + output.hidden_note(hidden)
    command = "nnsight-lint check --fix" + (" --unsafe-fixes" if unsafe else "")
    if fixable:
        text += f"\n[*] {fixable} fixable with `{command}`" + (f" ({_hidden(unsafe_hidden)})." if unsafe_hidden else ".")
    elif unsafe_hidden:
        text += f"\nNo fixes available ({_hidden(unsafe_hidden)})."
    return text


def _fix_summary(fixed: int, remaining: int, failed: int, would: bool, hidden: int = 0) -> str:
    """As ruff says it: what was fixed and what remains; with nothing fixed, what `check` says;
    the unsafe fixes left out (`hidden`) are counted so that a `--fix` that changed nothing says why."""
    note = f" ({_hidden(hidden)})" if hidden else ""
    if fixed:
        return f"{'Would fix' if would else 'Fixed'} {fixed} problem{'s' if fixed != 1 else ''}, {remaining} remaining{note}."
    if not remaining and not failed:
        return "All checks passed."
    text = f"Found {remaining} problem{'s' if remaining != 1 else ''}."
    if failed:  # never "passed": the errors above name files that were not (fully) fixed
        text += f" {failed} file{'s' if failed != 1 else ''} could not be fixed."
    if hidden:
        text += f"\nNo fixes applied ({_hidden(hidden)})."
    return text




def _explain(args) -> int:
    from nnsight_lint import rules

    by_name = {rule.NAME: code for code, rule in rules.RULES.items()}
    code = by_name.get(args.code.strip().lower(), args.code.strip().upper())
    if code not in rules.RULES:
        return _usage_error(f"unknown rule {args.code!r}; `nnsight-lint rules` lists them")
    sys.stdout.write(rules.explanation(code))
    return EXIT_CLEAN


def _rules(args) -> int:
    from nnsight_lint import rules

    if args.output_format == "json":
        import json

        listed = [
            {"code": code, "name": rule.NAME, "summary": rule.SUMMARY, "default": rules.is_default(code),
             "fix": getattr(rule, "FIX", None), "nnsight": rules.versions(code), "url": messages_url(code)}
            for code, rule in rules.RULES.items()
        ]
        sys.stdout.write(json.dumps(listed, indent=2) + "\n")
        return EXIT_CLEAN
    print(f"{'code':<7} {'name':<32} {'default':<8} {'fix':<7} {'nnsight':<8} summary")
    for code, rule in rules.RULES.items():
        default = "on" if rules.is_default(code) else "opt-in"
        fix = getattr(rule, "FIX", None) or "-"
        print(f"{code:<7} {rule.NAME:<32} {default:<8} {fix:<7} {rules.versions(code):<8} {rule.SUMMARY}")
    return EXIT_CLEAN


def _server(args) -> int:
    try:
        from nnsight_lint.doors.lsp import serve  # imports pygls and lsprotocol
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        from nnsight_lint import messages

        return _usage_error(messages.LSP_MISSING_EXTRA)
    return serve()


def messages_url(code: str) -> str:
    from nnsight_lint import messages

    return messages.DOCS_URL.format(code=code)


def _say(message: str) -> None:
    print(f"nnsight-lint: {message}", file=sys.stderr)


def _say_skipped(paths, results) -> None:
    """A notebook named on the command line whose kernel is not Python is not checked: say so, or
    "All checks passed." would read as if it had been."""
    from nnsight_lint.sources.discovery import NOTEBOOK_SUFFIXES

    # The notebook module (and libcst behind it) is imported only when a notebook is named.
    named = {os.path.normpath(p) for p in paths if p.lower().endswith(NOTEBOOK_SUFFIXES) and os.path.isfile(p)}
    if not named:
        return
    from nnsight_lint.sources import notebook

    for path in sorted(p for p in named if notebook.is_notebook(p)):
        try:
            with open(path, "rb") as handle:
                python = notebook.read(handle.read()).python
        except (OSError, notebook.NotebookError):
            continue
        if not python:
            _say(f"not checked, its kernel is not Python: {path}")


def _say_settings(resolver, path) -> None:
    """--verbose: where the settings of the first path come from, and the nnsight it targets."""
    from nnsight_lint.knowledge import versions

    settings = resolver.for_path(path)
    target = settings.target()
    _say(f"settings: {settings.config_file or 'no config file (the defaults)'}")
    _say(f"target nnsight {versions.show(target.version)} ({target.source})")


def _warn(path: str, message: str) -> None:
    print(f"warning: {path}: {message}", file=sys.stderr)


def _say_force_excluded(args, resolver) -> None:
    """A file named on the command line that --force-exclude left out: say so, or the summary
    ("All checks passed.") would read as if it had been checked."""
    named = [args.stdin_filename] if args.paths == ["-"] else [p for p in args.paths if os.path.isfile(p)]
    for path in named:
        if path and resolver.for_path(path).is_excluded(path):
            print(f"nnsight-lint: not checked, excluded by the settings (--force-exclude): {path}", file=sys.stderr)


def _usage_error(message: str) -> int:
    print(f"nnsight-lint: error: {message}", file=sys.stderr)
    return EXIT_ERROR
