"""The gradient family (NNL002-NNL007) beyond its case folders: where NNL004's fix applies, and
messages that depend on the nnsight the code targets."""
from __future__ import annotations

from pathlib import Path

from nnsight_lint.engine.lint import LintOptions, lint_source
from nnsight_lint.engine.fixing import apply_fixes
from tests.case_runner import run_case
from tests.tiny_model import tiny_model

CASES = Path(__file__).resolve().parent.parent / "rules"


def findings(source: str, code: str, **options):
    return [d for d in lint_source(source, "x.py", LintOptions(select=(code,), **options)) if d.code == code]


def test_nnl004_hoists_a_capture_that_opens_the_backward_body_and_the_result_runs(tmp_path):
    case = CASES / "NNL004" / "input_read_inside_backward.py"
    source = case.read_text(encoding="utf-8")
    (finding,) = findings(source, "NNL004")
    assert finding.fix is not None and finding.fix.safe
    fixed, applied = apply_fixes(source, [finding.fix])
    assert applied == 1
    assert "    block_in = model.transformer.h[1].input  # expect: NNL004\n    with model.lm_head" in fixed
    assert findings(fixed, "NNL004") == []
    program = tmp_path / case.name
    program.write_text(fixed.replace("# runtime-raises:", "# was:"), encoding="utf-8")
    run_case(program, tiny_model())  # the capture now runs in the forward: clean


def test_nnl004_offers_no_fix_when_the_capture_would_come_after_a_later_module():
    # The loss was taken from lm_head before the block: reading h[1] there would be out of order.
    source = (CASES / "NNL004" / "output_read_inside_backward.py").read_text(encoding="utf-8")
    (finding,) = findings(source, "NNL004")
    assert finding.fix is None


OLD_IDIOM = """\
with model.trace("the cat sat"):
    hidden = model.transformer.h[0].output
    hidden_grad = hidden.grad.save()
    model.lm_head.output.sum().backward()
"""


def test_nnl002_speaks_of_the_nnsight_the_code_targets():
    assert [(d.line, "None" in d.message) for d in findings(OLD_IDIOM, "NNL002", target_version=(0, 8))] == [(3, True)]
    (on_06,) = findings(OLD_IDIOM, "NNL002", target_version=(0, 6))
    assert "NameError" in on_06.message
    assert findings(OLD_IDIOM, "NNL002", target_version=(0, 4)) == []  # the documented idiom then


UNSAFE_HOISTS = ("capture_rebinds_the_loss_name.py", "walrus_in_header_binds_what_the_capture_reads.py")


def test_nnl004_hoist_is_unsafe_when_the_with_line_reads_or_binds_the_moved_name(tmp_path):
    """Moved above the `with`, the statement would change the loss (or what the body reads): plain
    `--fix` leaves the file alone, and the moved program computes something else than the hand-fixed
    one (which captures under another name), on real nnsight."""
    import torch

    from nnsight_lint.sources import source as sources

    model = tiny_model()
    for name in UNSAFE_HOISTS:
        text = (CASES / "NNL004" / name).read_text(encoding="utf-8")
        (finding,) = findings(text, "NNL004")
        assert finding.fix is not None and not finding.fix.safe, name
        assert sources.of(text, name).fix(LintOptions()).after == text, name
        moved = sources.of(text, name).fix(LintOptions(), unsafe=True).after
        assert moved != text
        moved_line = next(line for line in text.splitlines() if line.endswith("# expect: NNL004"))
        name_bound, access = moved_line.split("  #")[0].strip().split(" = ")
        # By hand: capture under a name of its own before the block, rebind to it inside.
        reference = text.replace(moved_line, f"        {name_bound} = captured").replace(
            "    with ", f"    captured = {access}\n    with ", 1)
        results = []
        for label, program in (("moved", moved), ("reference", reference)):
            path = tmp_path / f"{label}_{name}"
            path.write_text(program.replace("# runtime-raises:", "# was:"), encoding="utf-8")
            namespace = {}
            try:
                run_case(path, model, namespace=namespace)
            except RuntimeError as error:  # the moved loss is no scalar: backward refuses it
                namespace = {"error": str(error)}
            results.append(namespace)
            for parameter in model.parameters():
                parameter.grad = None
        moved_run, reference_run = results
        assert "error" not in reference_run, name
        if "error" not in moved_run:
            key = "embedding_grad" if "embedding_grad" in reference_run else "hidden_grad"
            same = moved_run[key].shape == reference_run[key].shape and torch.equal(moved_run[key], reference_run[key])
            assert not same, name
