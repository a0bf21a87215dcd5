"""`import nnsight as ns` and `ns.list()` in a repo pinned to nnsight 0.4.

The 0.4 API (checked on nnsight 0.4.11): nothing to report for that target.
"""
# target-version: 0.4
import nnsight as ns

with model.trace("the cat sat"):
    logits = ns.list().save()
    logits.append(model.lm_head.output)

assert len(logits) == 1
