"""On nnsight 0.4 a session run on a backend of the caller's keeps saved names as proxies.

nnsight's own 0.4 tests read `.value` after `model.session(backend=...)`: correct there.
On 0.4 a block's output is a tuple (transformers 4.46): `[0]` is its hidden state. Runs on
nnsight 0.4.11 in `tests/test_rule_cases_old_nnsight.py`.
"""
# target-version: 0.4
from nnsight.tracing.backends import ExecutionBackend

with model.session(backend=ExecutionBackend(injection=False)):
    with model.trace("hello world"):
        hidden = model.transformer.h[1].output[0].save()

print(hidden.value.shape)
