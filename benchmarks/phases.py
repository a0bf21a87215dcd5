"""Where one file's time goes: reading, the pre-filter, slicing, parsing, the analysis model, the
rules and positions, summed over a tree of files linted in this one process.

    .venv/bin/python benchmarks/phases.py DIR
    .venv/bin/python benchmarks/phases.py --per-rule DIR   # and the rules' time split by rule
    .venv/bin/python benchmarks/phases.py --analyses DIR   # and the analyses rules ask for, inclusive


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
# The analyses rules ask for on first use (inside a rule's time): (module, attribute, what holds it).
ANALYSES = (
    ("nnsight_lint.analysis.api_uses", "api_uses", "NNL302's walk"),
    ("nnsight_lint.analysis.models", "resolve_models", "which model a trace runs on"),
    ("nnsight_lint.analysis.bindings", "Index", "its index of bindings (inside resolve_models)"),
    ("nnsight_lint.analysis.schemas", "known_model", "the schema of a trace's model (resolve_models on first ask)"),
    ("nnsight_lint.analysis.schemas", "module_events", "module accesses on a known model"),
    ("nnsight_lint.analysis.uses", "uses", "reads after a binding"),
)


class Clock:
    """Exclusive time per phase: a phase entered inside another pauses the outer one."""

    def __init__(self) -> None:
        self.spent: Dict[str, float] = dict.fromkeys(PHASES, 0.0)
        self.by_rule: Dict[str, float] = {}  # a rule's exclusive time, under "rules" too
        self.inclusive: Dict[str, List[float]] = {}  # an analysis: [seconds, calls], nested calls once
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


    def counted(self, label: str, function: Callable) -> Callable:
        """`function`'s inclusive time under `label`, outside any phase (a recursive or nested call
        is counted once, by its outermost call)."""
        depth = [0]

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            depth[0] += 1
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                depth[0] -= 1
                if not depth[0]:
                    entry = self.inclusive.setdefault(label, [0.0, 0])
                    entry[0] += time.perf_counter() - started
                    entry[1] += 1
        return wrapper


def instrument_analyses(clock: Clock) -> None:
    """Wrap each of `ANALYSES` where it is defined and where rules imported it by name."""
    import importlib
    import sys as system

    for module_name, attribute, _ in ANALYSES:
        module = importlib.import_module(module_name)
        original = getattr(module, attribute)
        wrapped = clock.counted(f"{module_name.rsplit('.', 1)[-1]}.{attribute}", original)
        for loaded in list(system.modules.values()):
            if getattr(loaded, "__name__", "").startswith("nnsight_lint") and getattr(loaded, attribute, None) is original:
                setattr(loaded, attribute, wrapped)


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


def analysis_table(clock: Clock, spent: Dict[str, float]) -> str:
    files = spent["files"] or 1
    parse = spent["parse"] or float("nan")
    rows = ["| analysis (inclusive) | calls | ms per file | x parse |", "|---|---:|---:|---:|"]
    for label, (seconds, calls) in clock.inclusive.items():
        rows.append(f"| {label} | {calls} | {1000 * seconds / files:.3f} | {seconds / parse:.3f} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--per-rule", action="store_true", help="also split the rules' time by rule")
    parser.add_argument("--analyses", action="store_true", help="also time the analyses rules ask for")
    arguments = parser.parse_args()
    clock = Clock()
    if arguments.analyses:
        from nnsight_lint import rules

        for code in rules.RULES:  # imported now, so that their names for the analyses get wrapped
            rules.rule(code)
        instrument_analyses(clock)
    spent = measure(arguments.root, clock)
    print(table(spent))
    if arguments.per_rule:
        print("\n" + rule_table(clock, spent))
    if arguments.analyses:
        print("\n" + analysis_table(clock, spent))


if __name__ == "__main__":
    main()
