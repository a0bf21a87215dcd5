"""The long fuzz run: tests/test_fuzz.py's properties on many more generated inputs, with a report.

    .venv/bin/python scripts/fuzz.py                       # 2,000 nnsight-shaped files, 500
                                                           # hypothesmith programs, 200 programs run
                                                           # on the tiny model, 10 CLI trees, every
                                                           # fix against its hand-fixed program
    .venv/bin/python scripts/fuzz.py --programs 10000 --differential 1000 --seed 7

Unlike CI, the run is random (`--seed` repeats one), it does not stop at the first failure and does
not shrink: every failing input is written to the failures directory (printed at the end) and
counted. It also runs every backward form with every retain spelling on torch, which CI only lints.
The report is what docs/reliability.md ("The fuzz suite") quotes. Exit status 1 if any property
failed or linter and torch disagreed.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests import nnsight_programs as generated  # noqa: E402
from tests.fuzz_properties import (  # noqa: E402
    InvalidProgram,
    check_cli_tree,
    check_fix_against_reference,
    check_fix_properties,
    judge,
)


class Stage:
    """Counts one kind of input through one property; keeps every failing input."""

    def __init__(self, name: str, failures: Path):
        self.name, self.failures = name, failures
        self.count, self.failed = 0, 0
        self.reasons: Counter = Counter()
        self.started = time.process_time()

    def fail(self, data, error: BaseException) -> None:
        self.failed += 1
        reason = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"[:160]
        self.reasons[reason] += 1
        blob = data if isinstance(data, bytes) else str(data).encode("utf-8", "surrogatepass")
        name = f"{''.join(c if c.isalnum() else '_' for c in self.name)}-{hashlib.sha1(blob).hexdigest()[:12]}"
        (self.failures / f"{name}.py").write_bytes(blob)
        (self.failures / f"{name}.txt").write_text("".join(traceback.format_exception(error)))

    def line(self) -> str:
        cpu = time.process_time() - self.started
        return f"| {self.name} | {self.count:,} | {self.failed} | {cpu:.0f} s |"


def run(stage: Stage, strategy, examples: int, check, seed_value: int) -> Stage:
    @seed(seed_value)
    @settings(
        max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def property(value):
        stage.count += 1
        try:
            check(value)
        except Exception as error:  # counted and kept, the run goes on
            stage.fail(value, error)

    property()
    print(stage.line(), flush=True)
    return stage


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=2000, help="nnsight-shaped files through lint/fix")
    parser.add_argument("--python", type=int, default=500, help="hypothesmith programs (alone and in a trace)")
    parser.add_argument("--differential", type=int, default=200, help="nnsight programs run on the tiny model")
    parser.add_argument("--trees", type=int, default=10, help="generated trees through the real CLI")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("NNSIGHT_LINT_FUZZ_SEED", "0")) or None)
    parser.add_argument("--failures", type=Path, help="where failing inputs go (default: a new temp dir)")
    args = parser.parse_args()
    seed_value = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    failures = args.failures or Path(tempfile.mkdtemp(prefix="nnsight-lint-fuzz-"))
    failures.mkdir(parents=True, exist_ok=True)
    warnings.simplefilter("ignore")
    print(f"seed {seed_value}; failing inputs go to {failures}\n")
    print("| property | inputs | failed | CPU (this process) |\n|---|---:|---:|---:|", flush=True)

    stages = [
        run(Stage("lint/fix: nnsight-shaped files", failures), generated.files, args.programs,
            check_fix_properties, seed_value),
        run(Stage("lint/fix: hypothesmith programs", failures), generated.python_sources(), args.python // 2,
            lambda s: check_fix_properties(s.encode("utf-8")), seed_value),
        run(Stage("lint/fix: hypothesmith code in a trace", failures), generated.python_in_traces(),
            args.python * 2 // 5, lambda s: check_fix_properties(s.encode("utf-8")), seed_value),
        run(Stage("lint/fix: hypothesmith libcst nodes in a trace", failures),
            generated.python_in_traces(nodes=True), args.python // 10,
            lambda s: check_fix_properties(s.encode("utf-8")), seed_value),
    ]

    def tree(value):
        files = [*value[0], value[1].encode("utf-8")]
        try:
            with tempfile.TemporaryDirectory() as root:
                check_cli_tree(Path(root), files)
        except Exception:
            kept = failures / f"tree-{hashlib.sha1(b''.join(files)).hexdigest()[:12]}"
            kept.mkdir()
            for number, data in enumerate(files):
                (kept / f"m{number}.py").write_bytes(data)
            raise

    stages.append(run(Stage("CLI: jobs, cache, JSON edits, --fix", failures),
                      st.tuples(st.lists(generated.files, min_size=6, max_size=8), generated.python_sources()),
                      args.trees, tree, seed_value))

    from tests.tiny_model import tiny_model

    model = tiny_model()
    directory = Path(tempfile.mkdtemp(prefix="nnsight-lint-fuzz-run-"))
    verdicts, invalid = {}, Counter()

    def differential(stage: Stage, program) -> None:
        text = program.render()
        try:
            verdict = judge(text, program.flags, len(list(program.backwards())), directory, model)
        except InvalidProgram as error:
            invalid[str(error).splitlines()[0][:120]] += 1
            stage.fail(text, error)
            return
        except Exception as error:
            stage.fail(text, error)
            return
        verdicts.setdefault(stage.name, []).append(verdict)
        if not verdict.agrees:
            stage.fail(text, AssertionError(verdict.problem))

    table = Stage("torch: every form x retain spelling", failures)
    for form, retain in generated.EVERY_FORM_AND_SPELLING:
        table.count += 1
        differential(table, generated.one_of_each(form, retain))
    print(table.line(), flush=True)
    random_programs = Stage("torch: generated nnsight programs", failures)
    stages += [table, run(random_programs, generated.programs(), args.differential,
                          lambda program: differential(random_programs, program), seed_value)]

    fixes = Stage("torch: every fix against the hand-fixed program", failures)
    for program in generated.every_fix_program():
        fixes.count += 1
        try:
            check_fix_against_reference(program, directory, model)
        except Exception as error:
            fixes.fail(program.wrong, error)
    print(fixes.line(), flush=True)
    stages.append(fixes)

    print()
    for name, judged in verdicts.items():
        agree = sum(v.agrees for v in judged)
        print(f"{name}: {len(judged)} programs ({sum(v.runs for v in judged):,} runs), "
              f"{sum(v.failed_unfixed for v in judged)} failed as generated, "
              f"{sum(len(v.flagged) for v in judged)} findings over {sum(v.sites for v in judged)} backward sites; "
              f"linter and torch agree on {agree}/{len(judged)} ({100 * agree / max(len(judged), 1):.1f}%)")
    if invalid:
        print(f"not valid nnsight (the generator's or nnsight's fault): {sum(invalid.values())}")
    failed = [s for s in stages if s.failed]
    for stage in failed:
        print(f"\n{stage.name}: {stage.failed} failed")
        for reason, count in stage.reasons.most_common(10):
            print(f"  {count:5}  {reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
