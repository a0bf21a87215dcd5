"""On nnsight 0.3, a `for` loop over a proxy never ends.

The proxy has no `__iter__`, so Python iterates by `__getitem__(0)`, `(1)`, ... and a proxy never
raises IndexError while the graph is built: the hidden state has 2 rows, the loop gives 1000 before
it is stopped here, and the trace then fails on the rows that do not exist (checked on 0.3.7).
"""
# target-version: 0.3
# runtime-raises: IndexError
with model.trace("hello world"):
    rows = 0
    for row in model.transformer.h[0].output[0][0]:  # expect: NNL507
        rows += 1
        if rows == 1000:
            break

assert rows == 1000
