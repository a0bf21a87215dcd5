"""`nnsight-lint migrate --to 0.8 PATH`: every mechanical replacement applied, marked safe or unsafe
honestly, and a summary of what was changed and what needs a person (the real CLI, real files)."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from nnsight_lint.engine.lint import LintOptions, lint_source

OLD = textwrap.dedent('''\
    import nnsight

    with model.trace("hello world", scan=False, validate=False) as tracer:
        acts = nnsight.list().save()
        acts.append(model.transformer.h[0].mlp.output)
        hidden = model.transformer.h[0].mlp.output.save()
        model.transformer.h[0].mlp.output.stop()
    weight = model._model.lm_head.weight
    print(hidden.value)

    with model.generate("hello", max_new_tokens=2):
        first = model.lm_head.output.save()
        second = model.lm_head.next().output.save()
''')


def _migrate(*args, cwd):
    return subprocess.run([sys.executable, "-m", "nnsight_lint", "migrate", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_migrate_applies_every_mechanical_replacement_and_lists_the_rest(tmp_path):
    path = tmp_path / "old.py"
    path.write_text(OLD)
    result = _migrate("--to", "0.8", str(path), cwd=tmp_path)
    migrated = path.read_text()
    assert "scan=" not in migrated and "validate=" not in migrated
    assert "acts = nnsight.save([])" in migrated
    assert "    tracer.stop()\n" in migrated and ".output.stop()" not in migrated
    assert "model._module.lm_head.weight" in migrated
    assert "print(hidden)" in migrated
    # `.next()` is no mechanical change: left, and said so.
    assert "model.lm_head.next()" in migrated
    assert result.returncode == 1
    assert "NNL301" in result.stdout and "next()" in result.stdout
    assert "Migration to nnsight 0.8: changed" in result.stderr and "needs a person (NNL301 x1)" in result.stderr
    compile(migrated, str(path), "exec")


def test_migrate_diff_writes_nothing(tmp_path):
    path = tmp_path / "old.py"
    path.write_text(OLD)
    result = _migrate("--to", "0.8", "--diff", str(path), cwd=tmp_path)
    assert path.read_text() == OLD
    assert "-weight = model._model.lm_head.weight" in result.stdout
    assert "+weight = model._module.lm_head.weight" in result.stdout
    assert "would change" in result.stderr


def test_safe_only_keeps_the_unsafe_replacements(tmp_path):
    path = tmp_path / "old.py"
    path.write_text(OLD)
    _migrate("--to", "0.8", "--safe-only", str(path), cwd=tmp_path)
    migrated = path.read_text()
    assert "model._module" in migrated and "print(hidden)" in migrated  # safe
    assert "scan=False" in migrated and ".output.stop()" in migrated  # unsafe: left


def test_fix_safety_is_stated_per_replacement():
    found = {d.message.split("`")[1]: d.fix for d in lint_source(OLD, "old.py", LintOptions(target_version=(0, 8)))
             if d.code == "NNL302"}
    assert found["model._model"].safe
    assert not found["<module>.output.stop()"].safe
    assert not found["trace(..., scan=...)"].safe


def test_the_same_code_is_clean_for_the_release_it_was_written_for():
    codes = {d.code for d in lint_source(OLD.replace("print(hidden.value)", "print(hidden)"), "old.py",
                                         LintOptions(target_version=(0, 4)))}
    assert "NNL302" not in codes


LOOPS = textwrap.dedent('''\
    with model.generate("hello", max_new_tokens=3) as tracer:
        for i in range(3):
            logits = model.lm_head.output.save()
            model.next()
    with model.generate("hello", max_new_tokens=3):
        for i in range(3):
            logits = model.lm_head.output.save()
            model.next()
    with model.generate("hello", max_new_tokens=3) as tracer:
        for i in range(3):
            logits = model.lm_head.output.save()
            if i == 1:
                break
            model.next()
    with model.generate("hello", max_new_tokens=3) as tracer:
        for i in range(1, 3):
            logits = model.lm_head.output.save()
            model.next()
''')


def test_a_range_loop_ending_in_model_next_becomes_tracer_iter_and_only_that_shape():
    found = [d for d in lint_source(LOOPS, "old.py", LintOptions(target_version=(0, 8))) if d.code == "NNL301"]
    assert [d.start.line for d in found] == [4, 8, 14, 18]
    fixed, unnamed, leaves, offset = found
    assert not fixed.fix.safe
    assert [(e.start.line, e.content) for e in fixed.fix.edits] == [(2, "tracer.iter[:3]"), (4, "")]
    assert "as tracer" in unnamed.detail and unnamed.fix is None  # no tracer name to loop on
    assert leaves.fix is None and offset.fix is None  # `break`; a range not from 0: by hand
    assert "tracer.iter" in leaves.detail


def test_migrating_the_loop_leaves_it_without_next(tmp_path):
    path = tmp_path / "old.py"
    path.write_text(LOOPS)
    _migrate("--to", "0.8", str(path), cwd=tmp_path)
    first = path.read_text().split("with model.generate")[1]
    assert "for i in tracer.iter[:3]:" in first and "next()" not in first
