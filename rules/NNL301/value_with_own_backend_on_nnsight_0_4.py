"""On nnsight 0.4 a trace run on a backend of the caller's keeps saved names as proxies.

Only the default execution backend swaps saved names for their values when the trace exits
(nnsight 0.4's frame injection); with `backend=` (nnsight's own 0.4 tests) or `remote=True`,
`.value` is still how the value is read.
On 0.4 a block's output is a tuple (transformers 4.46): `[0]` is its hidden state; runs on 0.4.11
(`tests/test_rule_cases_old_nnsight.py`).
"""
# target-version: 0.4
from nnsight.tracing.backends import ExecutionBackend

with model.trace("hello world", backend=ExecutionBackend(injection=False)):
    hidden = model.transformer.h[1].output[0].save()

print(hidden.value.shape)
