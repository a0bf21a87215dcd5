"""On nnsight 0.4 a trace builds a graph: reading a later module before an earlier one is fine.

Written for a repo pinned to 0.4 (nnsight's own 0.4.11 tests read `h[-1].output` then
`h[-1].input`); a block's output is a tuple on 0.4 (`[0]`: its hidden state); runs on 0.4.11
(`tests/test_rule_cases_old_nnsight.py`).
"""
# target-version: 0.4
with model.trace("hello world"):
    last = model.transformer.h[1].output[0].save()
    first = model.transformer.h[0].output[0].save()

print(last.shape, first.shape)
