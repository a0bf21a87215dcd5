"""On nnsight 0.4, a proxy's truth value outside an `if` statement fails.

0.4 turns `if proxy:` into a graph condition by reading the `if` back from the file; a conditional
expression (`a if proxy else b`), `bool()`, `while`, `assert`, `and`/`or` and `not` have no `if`
statement to read, and nnsight fails looking for one (checked on 0.4.11).
"""
# target-version: 0.4
# runtime-raises: has no attribute 'end_lineno'
with model.trace("hello world"):
    top = model.lm_head.output[0, -1].max()
    label = "confident" if top > 1.0 else "unsure"  # expect: NNL507
