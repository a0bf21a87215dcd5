"""On nnsight 0.4 a trace run on a backend of the caller's keeps saved names as proxies.

Only the default execution backend swaps saved names for their values when the trace exits
(nnsight 0.4's frame injection); with `backend=` (nnsight's own 0.4 tests) or `remote=True`,
`.value` is still how the value is read. Lint-only here, since 0.8.1 is installed.
"""
# target-version: 0.4
from nnsight.tracing.backends import ExecutionBackend

with model.trace("hello world", backend=ExecutionBackend(injection=False)):
    hidden = model.transformer.h[1].output.save()

print(hidden.value.shape)
