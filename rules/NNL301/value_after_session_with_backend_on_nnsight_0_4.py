"""On nnsight 0.4 a session run on a backend of the caller's keeps saved names as proxies.

nnsight's own 0.4 tests read `.value` after `model.session(backend=...)`: correct there.
Lint-only here, since 0.8.1 is installed.
"""
# target-version: 0.4
from nnsight.tracing.backends import ExecutionBackend

with model.session(backend=ExecutionBackend(injection=False)):
    with model.trace("hello world"):
        hidden = model.transformer.h[1].output.save()

print(hidden.value.shape)
