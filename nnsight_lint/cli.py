"""The command line: `nnsight-lint check`, `explain`, `rules`. A thin door onto the engine.

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nnsight-lint", description="Catch nnsight mistakes before they cost a GPU hour."
    )
    parser.add_argument("--version", action="version", version=f"nnsight-lint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    check = commands.add_parser("check", help="check files or directories (default: .)")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files, directories, or - for stdin")
    check.add_argument("--select", type=_codes, default=[], metavar="CODES", help="only these codes or prefixes")
    check.add_argument("--ignore", type=_codes, default=[], metavar="CODES", help="skip these codes or prefixes")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when problems are found")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    check.add_argument("--stdin-filename", metavar="NAME", help="the name to show for source read from stdin")
    check.add_argument("--fix", action="store_true", help="apply fixes in place (stdin: print the fixed source)")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    check.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes marked unsafe")
    check.add_argument(
        "--exit-non-zero-on-fix", action="store_true", help="with --fix: exit 1 when a file was changed"
    )
    check.set_defaults(handler=_check)

    explain = commands.add_parser("explain", help="print the full explanation of a rule")
    explain.add_argument("code", metavar="CODE")
    explain.set_defaults(handler=_explain)

    listing = commands.add_parser("rules", help="list the rules")
    listing.set_defaults(handler=_rules)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
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
    from nnsight_lint.api import lint_paths, lint_text
    from nnsight_lint.discovery import iter_files
    from nnsight_lint.engine import LintOptions
    from nnsight_lint.output import concise

    unknown = [c for c in args.select + args.ignore if not any(code.startswith(c) for code in rules.RULES)]
    if unknown:
        return _usage_error(f"unknown rule code or prefix: {', '.join(unknown)}")
    options = LintOptions(select=tuple(args.select), ignore=tuple(args.ignore))
    missing = [p for p in args.paths if p != "-" and not os.path.exists(p)]
    if missing:
        return _usage_error("; ".join(f"{p}: no such file or directory" for p in missing))

    if args.fix or args.diff:
        return _fix(args, options)
    if args.paths == ["-"]:
        results = [lint_text(sys.stdin.buffer.read(), args.stdin_filename or "-", options)]
    else:
        results = list(lint_paths(iter_files(args.paths), options))

    diagnostics = sorted((d for r in results for d in r.diagnostics), key=lambda d: d.sort_key())
    errors = [r for r in results if r.error]
    sys.stdout.write(concise(diagnostics))
    sys.stdout.flush()
    for result in errors:
        print(f"error: {result.path}: {result.error}", file=sys.stderr)
    if not args.quiet:
        print(_summary(len(diagnostics), sum(1 for d in diagnostics if d.fix)), file=sys.stderr)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if diagnostics and not args.exit_zero else EXIT_CLEAN


def _fix(args, options) -> int:
    from nnsight_lint.api import fix_bytes, fix_file
    from nnsight_lint.discovery import iter_files
    from nnsight_lint.fixing import unified_diff
    from nnsight_lint.output import concise

    stdin = args.paths == ["-"]
    if stdin:
        results = [fix_bytes(sys.stdin.buffer.read(), args.stdin_filename or "-", options, args.unsafe_fixes)]
    else:
        results = [fix_file(p, options, args.unsafe_fixes, write=not args.diff) for p in iter_files(args.paths)]
    report = sys.stderr if stdin and not args.diff else sys.stdout
    if args.diff:
        sys.stdout.write("".join(unified_diff(r.path, r.before, r.after) for r in results if r.changed))
    elif stdin:
        sys.stdout.buffer.write(results[0].data)
    remaining = sorted((d for r in results for d in r.remaining), key=lambda d: d.sort_key())
    if not args.diff:
        report.write(concise(remaining))
    report.flush()
    errors = [r for r in results if r.error]
    for result in errors:
        print(f"error: {result.path}: {result.error}", file=sys.stderr)
    fixed = sum(r.fixed for r in results)
    if not args.quiet:
        verb = "Would fix" if args.diff else "Fixed"
        print(f"{verb} {fixed} problem{'s' if fixed != 1 else ''}, {len(remaining)} remaining.", file=sys.stderr)
    if errors:
        return EXIT_ERROR
    if args.diff:
        return EXIT_FINDINGS if any(r.changed for r in results) and not args.exit_zero else EXIT_CLEAN
    if args.exit_non_zero_on_fix and any(r.changed for r in results):
        return EXIT_FINDINGS
    return EXIT_FINDINGS if remaining and not args.exit_zero else EXIT_CLEAN


def _summary(found: int, fixable: int) -> str:
    if not found:
        return "All checks passed."
    text = f"Found {found} problem{'s' if found != 1 else ''}."
    if fixable:
        text += f"\n[*] {fixable} fixable with `nnsight-lint check --fix`."
    return text


def _explain(args) -> int:
    from nnsight_lint import rules

    code = args.code.upper()
    if code not in rules.RULES:
        return _usage_error(f"unknown rule {args.code!r}; `nnsight-lint rules` lists them")
    sys.stdout.write(rules.explanation(code))
    return EXIT_CLEAN


def _rules(args) -> int:
    from nnsight_lint import rules

    for code, rule in rules.RULES.items():
        print(f"{code}  {rule.NAME:<28} {rule.SUMMARY}")
    return EXIT_CLEAN


def _usage_error(message: str) -> int:
    print(f"nnsight-lint: error: {message}", file=sys.stderr)
    return EXIT_ERROR
