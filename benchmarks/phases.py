"""Where one file's time goes: reading, the pre-filter, slicing, parsing, the analysis model, the
rules and positions, summed over a tree of files linted in this one process.

    .venv/bin/python benchmarks/phases.py DIR
    .venv/bin/python benchmarks/phases.py --per-rule DIR   # and the rules' time split by rule


Each phase is timed exclusively (a rule's time does not count the positions it asks for), by
wrapping the engine's own functions for the length of the run; the engine is not changed. The
wrapping costs a little per call, so the phases add up to a bit more than an unwrapped run.
"""
from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PHASES = ("read", "pre-filter", "slicing", "parse", "analysis", "rules", "positions")


class Clock:
    """Exclusive time per phase: a phase entered inside another pauses the outer one."""

    def __init__(self) -> None:
        self.spent: Dict[str, float] = dict.fromkeys(PHASES, 0.0)
        self.by_rule: Dict[str, float] = {}  # a rule's exclusive time, under "rules" too
        self._stack: List[List] = []  # [phase, started, time spent in phases inside it]

    def timed(self, phase: str, function: Callable, generator: bool = False, rule: Optional[str] = None) -> Callable:
        """`function` timed as `phase`; a `generator` function's time is its whole iteration (a
        rule's `check` yields its findings: calling it alone runs none of it); `rule`: also counted
        under that rule's code (the analyses a rule asks for lazily are its time)."""
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            self._stack.append([phase, time.perf_counter(), 0.0])
            try:
                return list(function(*args, **kwargs)) if generator else function(*args, **kwargs)
            finally:
                _, started, inner = self._stack.pop()
                total = time.perf_counter() - started
                self.spent[phase] += total - inner
                if rule is not None:
                    self.by_rule[rule] = self.by_rule.get(rule, 0.0) + total - inner
                if self._stack:
                    self._stack[-1][2] += total
        return wrapper


def instrument(clock: Clock) -> None:
    import nnsight_lint.analysis as analysis
    from nnsight_lint import rules
    from nnsight_lint.engine import lint, positions

    lint.could_have_findings = clock.timed("pre-filter", lint.could_have_findings)
    lint.sliced = clock.timed("slicing", lint.sliced)
    lint.pieces = clock.timed("slicing", lint.pieces)
    lint.parse = clock.timed("parse", lint.parse)
    analysis.build_file_model = clock.timed("analysis", analysis.build_file_model)
    positions.Positions.span = clock.timed("positions", positions.Positions.span)
    for code, module in rules.RULES.items():
        module.check = clock.timed("rules", module.check, generator=True, rule=code)


def measure(root: Path, clock: Optional[Clock] = None) -> Dict[str, float]:
    from nnsight_lint.engine.lint import lint_source

    clock = clock or Clock()
    instrument(clock)
    read = clock.timed("read", Path.read_bytes)
    files = sorted(root.rglob("*.py"))
    for path in files:
        lint_source(read(path), str(path))
    return {"files": len(files), **clock.spent}


def table(spent: Dict[str, float]) -> str:
    files = spent["files"] or 1
    total = sum(spent[p] for p in PHASES)
    parse = spent["parse"] or float("nan")
    rows = ["| phase | ms per file | share | x parse |", "|---|---:|---:|---:|"]
    for phase in PHASES:
        rows.append(f"| {phase} | {1000 * spent[phase] / files:.2f} | {spent[phase] / total:.0%} | "
                    f"{spent[phase] / parse:.2f} |")
    after = sum(spent[p] for p in ("analysis", "rules", "positions"))
    rows.append(f"\n{int(spent['files'])} files; the work after the parse (analysis, rules, positions) is "
                f"{after / parse:.2f}x the parse.")
    return "\n".join(rows)


def rule_table(clock: Clock, spent: Dict[str, float]) -> str:
    files = spent["files"] or 1
    parse = spent["parse"] or float("nan")
    rows = ["| rule | ms per file | x parse |", "|---|---:|---:|"]
    for code, seconds in sorted(clock.by_rule.items(), key=lambda item: -item[1]):
        rows.append(f"| {code} | {1000 * seconds / files:.3f} | {seconds / parse:.3f} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--per-rule", action="store_true", help="also split the rules' time by rule")
    arguments = parser.parse_args()
    clock = Clock()
    spent = measure(arguments.root, clock)
    print(table(spent))
    if arguments.per_rule:
        print("\n" + rule_table(clock, spent))


if __name__ == "__main__":
    main()
