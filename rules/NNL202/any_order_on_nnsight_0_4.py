"""On nnsight 0.4 a trace builds a graph: reading a later module before an earlier one is fine.

Written for a repo pinned to 0.4 (nnsight's own 0.4.11 tests read `h[-1].output` then
`h[-1].input`); lint-only here, since 0.8.1 is installed.
"""
# target-version: 0.4
with model.trace("hello world"):
    last = model.transformer.h[1].output.save()
    first = model.transformer.h[0].output.save()

print(last.shape, first.shape)
