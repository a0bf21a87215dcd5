"""On nnsight 0.4, a `for` statement over a proxy inside a trace is fine: 0.4 makes it a graph loop.

The body runs once per row at run time (here: 2 tokens, 2 norms), and `len()` of the envoy list
`model.transformer.h` is the number of layers, a plain int (checked on 0.4.11).
"""
# target-version: 0.4
import nnsight

with model.trace("hello world"):
    n_layers = len(model.transformer.h)
    norms = nnsight.list().save()
    for row in model.transformer.h[0].output[0][0]:
        norms.append(row.norm())

assert n_layers == 2
assert len(norms) == 2
