"""On nnsight 0.4, a comprehension over a proxy inside the trace fails.

0.4 rewrites a comprehension over a proxy into a graph loop, and fails on the shape of this one
(checked on 0.4.11): a `for` statement is what 0.4 supports.
"""
# target-version: 0.4
# runtime-raises: has no attribute 'elt'
with model.trace("the cat sat"):
    hidden = model.transformer.h[0].output[0]
    norms = [row.norm() for row in hidden[0]]  # expect: NNL507
